import Dispatch
import Foundation

/// Turns SIGTERM and SIGINT into a call, so that a stop request reaches the worker loop
/// instead of killing the process mid-delivery.
final class StopSignals: @unchecked Sendable {
    private var sources: [DispatchSourceSignal] = []

    init(_ onStop: @escaping @Sendable (Int32) -> Void) {
        for sig in [SIGTERM, SIGINT] {
            signal(sig, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: sig, queue: .global())
            source.setEventHandler { onStop(sig) }
            source.resume()
            sources.append(source)
        }
    }
}

/// SIGHUP asks for the rules to be read again, as with most daemons.
final class ReloadSignal: @unchecked Sendable {
    private let source: DispatchSourceSignal

    init(_ onReload: @escaping @Sendable () -> Void) {
        signal(SIGHUP, SIG_IGN)
        source = DispatchSource.makeSignalSource(signal: SIGHUP, queue: .global())
        source.setEventHandler { onReload() }
        source.resume()
    }
}
