import CMicroHTTPD
import Foundation
import MetricsHTTP
import Synchronization

/// The gateway's HTTP/1.1 server over libmicrohttpd; all of this target's C pointers live in this file.
///
/// One internal polling thread (epoll) serves every connection and never waits on Kafka: a quote
/// request suspends its connection (`MHD_suspend_connection`), the answer is computed on Swift's
/// concurrency threads, and `MHD_resume_connection` hands it back. So thousands of calls can wait
/// for their replies without a thread each, while a stalled client costs one socket until the idle
/// `connectionTimeout` closes it. (Thread-per-connection would put a thread on every waiting call,
/// bounded only by the connection limit, on machines with two cores.)
final class GatewayDaemon: Sendable {
    /// What the service does with a request: answer at once, or start work that answers later.
    enum Routed: Sendable {
        case now(GatewayResponse)
        case later(@Sendable (_ answer: @escaping @Sendable (GatewayResponse) -> Void) -> Void)
    }

    struct Limits: Sendable {
        var maxBodyBytes: Int
        var connectionTimeoutSeconds: UInt32
        var maxConnections: UInt32
        /// Request line and headers must fit here (libmicrohttpd answers 431 otherwise).
        var maxHeaderBytes: Int
        /// HTTPS when given; plain HTTP otherwise.
        var tls: GatewayTLS? = nil
    }

    /// How much of a body beyond `maxBodyBytes` (by its Content-Length) is still read and dropped
    /// before its 413 is sent, so that the client reads the answer instead of a connection reset.
    /// A longer one is answered at once, and its connection closed. (A chunked body tells no
    /// length: it is read to its end, dropped once over the limit, within the idle timeout.)
    static let discardedBodyBytes = 1 << 20

    let address: HTTPListenAddress
    private let daemon: Mutex<DaemonPointer?>
    private let context: DaemonContext

    init(listen: HTTPListenAddress, limits: Limits, route: @escaping @Sendable (GatewayRequest) -> Routed) throws(HTTPEndpointError) {
        var credentials: TLSMemory?
        if let tls = limits.tls {
            guard MHD_is_feature_supported(.FEATURE_TLS) == .YES else { throw .tlsUnsupported("HTTPS") }
            if tls.keyPassword != nil, MHD_is_feature_supported(.FEATURE_HTTPS_KEY_PASSWORD) != .YES {
                throw .tlsUnsupported("an encrypted TLS key")
            }
            credentials = TLSMemory(tls)
        }
        let context = DaemonContext(maxBodyBytes: limits.maxBodyBytes, route: route, tls: credentials)
        let resolved = try listen.socketAddress()
        var flags = UInt32(MHD_USE_AUTO_INTERNAL_THREAD.rawValue) | UInt32(MHD_ALLOW_SUSPEND_RESUME.rawValue)
        if resolved.family == AF_INET6 { flags |= UInt32(MHD_USE_IPv6.rawValue) }
        let opaque = Unmanaged.passUnretained(context).toOpaque()
        let started: OpaquePointer? = resolved.storage.withUnsafeBytes { raw in
            let socketAddress = raw.baseAddress!.assumingMemoryBound(to: sockaddr.self)
            if let credentials {
                return shipquote_mhd_start_gateway_tls(flags, socketAddress, gatewayAccessHandler, opaque,
                                                       limits.connectionTimeoutSeconds, limits.maxConnections, limits.maxHeaderBytes,
                                                       gatewayRequestCompleted, opaque,
                                                       credentials.certificate, credentials.key, credentials.password, credentials.error)
            }
            return shipquote_mhd_start_gateway(flags, socketAddress, gatewayAccessHandler, opaque,
                                               limits.connectionTimeoutSeconds, limits.maxConnections, limits.maxHeaderBytes,
                                               gatewayRequestCompleted, opaque)
        }
        if started == nil, let credentials, let refused = credentials.refusal { throw .tlsRefused(reason: refused) }
        guard let started else { throw .startFailed(listen) }
        self.context = context
        self.daemon = Mutex(DaemonPointer(pointer: started))
        self.address = HTTPListenAddress(host: listen.host, port: shipquote_mhd_bound_port(started))
    }

    deinit { stop() }

    /// Requests whose answer was started later and that libmicrohttpd has not finished yet
    /// (waiting, or their answer still being sent).
    var unfinished: Int { context.unfinished.load(ordering: .acquiring) }

    /// Stops accepting connections; those open are still served (the first step of a drain).
    func quiesce() {
        daemon.withLock { current in
            guard let running = current, !running.quiesced else { return }
            let socket = MHD_quiesce_daemon(running.pointer)
            if socket >= 0 { close(socket) }
            current?.quiesced = true
        }
    }

    /// Closes every connection and the listener. Call once nothing is suspended any more.
    func stop() {
        let running = daemon.withLock { current -> DaemonPointer? in defer { current = nil }; return current }
        if let running { MHD_stop_daemon(running.pointer) }
        withExtendedLifetime(context) {}
    }
}

/// The PEM texts and the password as C strings, and the buffer libmicrohttpd logs into; freed
/// (the key and password zeroed first) when the daemon is gone.
private final class TLSMemory: @unchecked Sendable {
    let certificate: UnsafeMutablePointer<CChar>
    let key: UnsafeMutablePointer<CChar>
    let password: UnsafeMutablePointer<CChar>?
    let error: UnsafeMutablePointer<shipquote_mhd_error>

    init(_ tls: GatewayTLS) {
        certificate = strdup(tls.certificatePEM)
        key = strdup(tls.keyPEM)
        password = tls.keyPassword.map { strdup($0) }
        error = .allocate(capacity: 1)
        error.initialize(to: shipquote_mhd_error())
    }

    /// GnuTLS's reason, when libmicrohttpd refused the certificate or key; nil when it failed for
    /// another reason (a port taken: it sets TLS up before it binds, and its messages say which).
    var refusal: String? {
        // `message` is the struct's only member, always NUL-terminated (zeroed, then vsnprintf).
        let text = String(cString: UnsafeRawPointer(error).assumingMemoryBound(to: CChar.self))
            .split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }.joined(separator: " ")
        return text.contains("TLS") ? text : nil
    }

    deinit {
        memset(key, 0, strlen(key))
        free(key)
        if let password { memset(password, 0, strlen(password)); free(password) }
        free(certificate)
        error.deallocate()
    }
}

private struct DaemonPointer: @unchecked Sendable {
    let pointer: OpaquePointer
    var quiesced = false
}

/// Reached from libmicrohttpd's callbacks through the daemon's context pointer.
private final class DaemonContext: Sendable {
    let maxBodyBytes: Int
    let route: @Sendable (GatewayRequest) -> GatewayDaemon.Routed
    let unfinished = Atomic<Int>(0)
    /// Kept while the daemon runs: libmicrohttpd may log into its error buffer at any time.
    let tls: TLSMemory?

    init(maxBodyBytes: Int, route: @escaping @Sendable (GatewayRequest) -> GatewayDaemon.Routed, tls: TLSMemory?) {
        self.maxBodyBytes = maxBodyBytes
        self.route = route
        self.tls = tls
    }
}

/// One request between libmicrohttpd's calls: its body as it arrives, then its answer. Touched by
/// the daemon's thread, except `answer`, which the worker sets under its lock before resuming.
private final class PendingRequest: @unchecked Sendable {
    var request: GatewayRequest
    var dispatched = false
    var answeredLater = false
    let answer = Mutex<GatewayResponse?>(nil)

    init(_ request: GatewayRequest) { self.request = request }
}

private struct ConnectionPointer: @unchecked Sendable {
    let pointer: OpaquePointer
}

/// The few request headers the service reads.
private let readHeaders = ["content-length", "content-type", "expect", "request-timeout", "traceparent"]

private let gatewayAccessHandler: MHD_AccessHandlerCallback = { cls, connection, url, method, _, uploadData, uploadSize, conCls in
    guard let cls, let connection, let conCls, let uploadSize else { return .NO }
    let context = Unmanaged<DaemonContext>.fromOpaque(cls).takeUnretainedValue()
    guard let stored = conCls.pointee else {
        // First call: the request line and headers are in; no body read yet.
        var headers: [String: String] = [:]
        for name in readHeaders {
            if let value = MHD_lookup_connection_value(connection, .HEADER_KIND, name) { headers[name] = String(cString: value) }
        }
        let pending = PendingRequest(GatewayRequest(method: method.map { String(cString: $0) } ?? "",
                                                    path: url.map { String(cString: $0) } ?? "/",
                                                    headers: headers, body: [], bodyTooLarge: false))
        conCls.pointee = Unmanaged.passRetained(pending).toOpaque()
        if let length = headers["content-length"].flatMap({ Int($0) }), length > context.maxBodyBytes {
            pending.request.bodyTooLarge = true
            // A client waiting for `100 Continue` has sent no body: refused before it sends one.
            // Else the body is on its way: read and dropped, so that the answer is not lost to a
            // reset (a socket closed with unread bytes is reset, and the client, still sending,
            // sees the reset, not the 413), unless it is beyond what is worth reading.
            let waitsToSend = headers["expect"]?.lowercased() == "100-continue"
            if waitsToSend || length - context.maxBodyBytes > GatewayDaemon.discardedBodyBytes {
                pending.dispatched = true
                return queue(connection, context.route(pending.request).immediate)
            }
        }
        return .YES
    }
    let pending = Unmanaged<PendingRequest>.fromOpaque(stored).takeUnretainedValue()
    if uploadSize.pointee > 0 {
        let count = uploadSize.pointee
        if !pending.request.bodyTooLarge, let uploadData {
            if pending.request.body.count + count > context.maxBodyBytes {
                pending.request.bodyTooLarge = true
                pending.request.body = []
            } else {
                uploadData.withMemoryRebound(to: UInt8.self, capacity: count) {
                    pending.request.body.append(contentsOf: UnsafeBufferPointer(start: $0, count: count))
                }
            }
        }
        uploadSize.pointee = 0
        return .YES
    }
    if pending.dispatched {
        // Called again after MHD_resume_connection: the answer is ready.
        guard let answer = pending.answer.withLock({ $0 }) else { return .YES }
        return queue(connection, answer)
    }
    pending.dispatched = true
    switch context.route(pending.request) {
    case .now(let response):
        return queue(connection, response)
    case .later(let start):
        let suspended = ConnectionPointer(pointer: connection)
        pending.answeredLater = true
        context.unfinished.add(1, ordering: .acquiringAndReleasing)
        MHD_suspend_connection(connection)
        start { response in
            pending.answer.withLock { $0 = response }
            MHD_resume_connection(suspended.pointer)
        }
        return .YES
    }
}

private extension GatewayDaemon.Routed {
    /// The answer of a route that must answer at once (a refusal).
    var immediate: GatewayResponse {
        if case .now(let response) = self { return response }
        return GatewayResponse(status: 500)
    }
}

private func queue(_ connection: OpaquePointer, _ answer: GatewayResponse) -> MHD_Result {
    let response = answer.body.withUnsafeBytes { body in
        MHD_create_response_from_buffer(body.count, UnsafeMutableRawPointer(mutating: body.baseAddress), .RESPMEM_MUST_COPY)
    }
    guard let response else { return .NO }
    defer { MHD_destroy_response(response) }
    for header in answer.headers { _ = MHD_add_response_header(response, header.name, header.value) }
    _ = MHD_add_response_header(response, "Cache-Control", "no-store")
    return MHD_queue_response(connection, UInt32(answer.status), response)
}

private let gatewayRequestCompleted: MHD_RequestCompletedCallback = { cls, _, conCls, _ in
    guard let cls, let conCls, let stored = conCls.pointee else { return }
    let pending = Unmanaged<PendingRequest>.fromOpaque(stored)
    if pending.takeUnretainedValue().answeredLater {
        Unmanaged<DaemonContext>.fromOpaque(cls).takeUnretainedValue().unfinished.subtract(1, ordering: .acquiringAndReleasing)
    }
    pending.release()
    conCls.pointee = nil
}
