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
        let output = collect(process, [out, err], timeout: timeout)
        return (process.terminationStatus, String(decoding: output[0], as: UTF8.self), String(decoding: output[1], as: UTF8.self))
    }

    /// Reads the pipes as the process writes them (a full stderr cannot stall its stdout) until the
    /// process has ended and they are empty. Past `timeout` the process gets SIGTERM, and SIGKILL
    /// 10 s later: a command that hangs fails its test, never the suite.
    static func collect(_ process: Process, _ pipes: [Pipe], timeout: TimeInterval) -> [Data] {
        var output = Array(repeating: Data(), count: pipes.count)
        var open = pipes.map { $0.fileHandleForReading.fileDescriptor }
        let deadline = Date().addingTimeInterval(timeout)
        var terminated: Date?
        var exited: Date?
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while open.contains(where: { $0 >= 0 }) {
            var fds = open.filter { $0 >= 0 }.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            let ready = poll(&fds, nfds_t(fds.count), 100)
            for f in fds where f.revents != 0 {
                guard let i = open.firstIndex(of: f.fd) else { continue }
                let n = read(f.fd, &buffer, buffer.count)
                if n > 0 { output[i].append(contentsOf: buffer[0..<n]) } else if n == 0 || errno != EINTR { open[i] = -1 }
            }
            if !process.isRunning {
                // Ended and nothing more to read for a moment: done, even if some other process
                // still holds a write end.
                if ready <= 0 {
                    if let at = exited, Date().timeIntervalSince(at) > 0.2 { break }
                    if exited == nil { exited = Date() }
                }
            } else if Date() > deadline {
                if let at = terminated {
                    if Date().timeIntervalSince(at) > 10 { kill(process.processIdentifier, SIGKILL) }
                } else {
                    process.terminate()
                    terminated = Date()
                }
            }
        }
        process.waitUntilExit()
        return output
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

    /// Whether the pipe has something to read (or has ended) before `deadline`.
    static func readable(_ pipe: Pipe, before deadline: Date) -> Bool {
        var fd = pollfd(fd: pipe.fileHandleForReading.fileDescriptor, events: Int16(POLLIN), revents: 0)
        while Date() < deadline {
            let wait = Int32(max(1, min(100, deadline.timeIntervalSinceNow * 1000)))
            if poll(&fd, 1, wait) > 0 { return true }
        }
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
            // Waits only until the deadline: a process that never prints fails the test, never hangs it.
            guard readable(pipe, before: deadline) else { return nil }
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
        let data = Binary.collect(process, [out], timeout: timeout)[0]
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
