import Foundation

/// The `shipquote` binary that `swift test` built next to this test bundle, run as a person would.
enum Binary {
    static let url: URL = {
        let bundleDir = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        let beside = bundleDir.appendingPathComponent("shipquote")
        if FileManager.default.isExecutableFile(atPath: beside.path) { return beside }
        return repository.appendingPathComponent(".build/debug/shipquote")
    }()

    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static var exampleRules: String { repository.appendingPathComponent("examples/rules/us-acme.yaml").path }

    /// Starts the binary; output goes to pipes the caller reads.
    static func start(_ arguments: [String], environment: [String: String] = [:]) throws -> (Process, Pipe, Pipe) {
        let process = Process()
        process.executableURL = url
        process.arguments = arguments
        if !environment.isEmpty { process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
        process.currentDirectoryURL = repository
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        return (process, out, err)
    }

    /// Runs the binary to its end, or kills it after `timeout` seconds.
    static func run(_ arguments: [String], environment: [String: String] = [:],
                    timeout: TimeInterval) throws -> (status: Int32, stdout: String, stderr: String) {
        let (process, out, err) = try start(arguments, environment: environment)
        let killer = DispatchWorkItem { if process.isRunning { process.terminate() } }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: killer)
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        killer.cancel()
        return (process.terminationStatus, String(decoding: stdout, as: UTF8.self), String(decoding: stderr, as: UTF8.self))
    }

    /// Waits up to `timeout` seconds for `process` to exit. Past that it is killed (SIGKILL) and
    /// the answer is false: a process that ignores its stop makes a test fail, never hang.
    @discardableResult
    static func awaitExit(_ process: Process, timeout: TimeInterval) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        guard process.isRunning else { return true }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        return false
    }

    /// SIGTERM, then up to 20 s for a clean exit (SIGKILL after).
    static func stop(_ process: Process) {
        guard process.isRunning else { return }
        process.terminate()
        awaitExit(process, timeout: 20)
    }

    /// Reads one line from a pipe (the broker prints its address first).
    static func firstLine(of pipe: Pipe, timeout: TimeInterval) -> String? {
        var buffer = Data()
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let chunk = pipe.fileHandleForReading.availableData
            if chunk.isEmpty { return nil }
            buffer.append(chunk)
            if let nl = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                return String(decoding: buffer[..<nl], as: UTF8.self)
            }
        }
        return nil
    }
}

/// Runs a command found on PATH (kcat) with a time limit.
enum Tool {
    static func path(_ name: String) -> String? {
        for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let candidate = "\(dir)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    static func run(_ executable: String, _ arguments: [String], input: String? = nil, timeout: TimeInterval) throws -> (status: Int32, stdout: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let out = Pipe(), inPipe = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        process.standardInput = inPipe
        try process.run()
        if let input { inPipe.fileHandleForWriting.write(Data(input.utf8)) }
        try inPipe.fileHandleForWriting.close()
        let killer = DispatchWorkItem { if process.isRunning { process.terminate() } }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: killer)
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        killer.cancel()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
