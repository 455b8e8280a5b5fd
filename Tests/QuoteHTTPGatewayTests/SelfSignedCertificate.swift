import Foundation

/// A throwaway certificate for 127.0.0.1 and localhost, made by Debian's openssl in a temporary
/// folder (removed by `remove()`).
struct SelfSignedCertificate {
    static var openssl: String? {
        ["/usr/bin/openssl", "/bin/openssl", "/usr/local/bin/openssl"].first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    let folder: URL
    let certificate: URL
    let key: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("shipquote-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        certificate = folder.appendingPathComponent("cert.pem")
        key = folder.appendingPathComponent("key.pem")
        try Self.run(["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=localhost",
                      "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1", "-keyout", key.path, "-out", certificate.path])
    }

    var certificatePEM: String { (try? String(contentsOf: certificate, encoding: .utf8)) ?? "" }
    var keyPEM: String { (try? String(contentsOf: key, encoding: .utf8)) ?? "" }

    /// The key encrypted (AES-256, PKCS#8) with `password`.
    func encryptedKeyPEM(password: String) throws -> String {
        let encrypted = folder.appendingPathComponent("key-encrypted.pem")
        try Self.run(["pkcs8", "-topk8", "-v2", "aes256", "-in", key.path, "-passout", "pass:\(password)", "-out", encrypted.path])
        return try String(contentsOf: encrypted, encoding: .utf8)
    }

    func remove() { try? FileManager.default.removeItem(at: folder) }

    private static func run(_ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: openssl ?? "/usr/bin/openssl")
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw OpenSSLFailed(arguments: arguments) }
    }

    struct OpenSSLFailed: Error { let arguments: [String] }
}
