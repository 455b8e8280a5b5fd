import Foundation
import Kafka
import MetricsHTTP
import QuoteGateway
import QuoteHTTPGateway
import Testing

/// HTTPS through libmicrohttpd's GnuTLS, over real sockets: curl trusts the test's own
/// certificate with --cacert, as a merchant's backend trusts its CA.
@Suite(.serialized, .enabled(if: SelfSignedCertificate.openssl != nil, "openssl is not installed (apt-get install openssl): no certificate to serve"))
struct TLSTests {
    @Test func httpsAnswersTheUpdateAndPlainHTTPOnTheSamePortGetsNoAnswer() async throws {
        guard Curl.path != nil else { Issue.record("curl is not installed (apt-get install curl)"); return }
        let certificate = try SelfSignedCertificate()
        defer { certificate.remove() }
        let trust = ["--cacert", certificate.certificate.path]
        let stack = try await GatewayStack(worker: true, curlOptions: trust) { configuration in
            configuration.tls = GatewayTLS(certificatePEM: certificate.certificatePEM, keyPEM: certificate.keyPEM)
        }
        defer { Task { await stack.stop() } }
        #expect(stack.base.hasPrefix("https://127.0.0.1:"))

        let update = try await Curl.call(stack.url(session: "tls-update"), body: Bodies.quote(), options: trust)
        #expect(update.status == 200, "\(update.status) \(update.text)")
        #expect(update.headers["quote-outcome"] == "update")
        #expect(update.headers["quote-sequence"] == "1")
        #expect(update.text.hasPrefix("{\"summary_items\":["))
        let published = try stack.publishedUpdate(session: "tls-update", sequence: 1)
        #expect(published != nil && update.json == published)

        let ready = try await Curl.call("\(stack.base)/readyz", method: "GET", options: trust)
        #expect(ready.status == 200)

        // Without the CA, curl refuses the certificate: no status at all.
        let untrusted = try await Curl.call("\(stack.base)/healthz", method: "GET")
        #expect(untrusted.status == 0)
        // Plain HTTP to the TLS port: the handshake fails and the connection closes unanswered.
        let plain = try await Curl.call("http://127.0.0.1:\(stack.http.address.port)/healthz", method: "GET")
        #expect(plain.status == 0)
        #expect(plain.body.isEmpty)
    }

    @Test func aKeyThatIsNotTheCertificatesFailsAtStartWithTheReason() throws {
        let first = try SelfSignedCertificate(), second = try SelfSignedCertificate()
        defer { first.remove(); second.remove() }
        let refusal = Self.startError(GatewayTLS(certificatePEM: first.certificatePEM, keyPEM: second.keyPEM))
        guard case .tlsRefused(let reason)? = refusal else { Issue.record("expected tlsRefused, got \(String(describing: refusal))"); return }
        #expect(!reason.isEmpty)
        #expect(refusal?.description.hasPrefix("the TLS certificate and key were refused: ") == true)
    }

    /// A port taken is the listener's failure, not the certificate's.
    @Test func aTakenPortIsNotBlamedOnTheCertificate() throws {
        let certificate = try SelfSignedCertificate()
        defer { certificate.remove() }
        let plain = try QuoteHTTPGateway(configuration: .init(listen: HTTPListenAddress(host: "127.0.0.1", port: 0)), gateway: Self.unstartedGateway())
        let taken = plain.address.port
        let refusal = Self.startError(GatewayTLS(certificatePEM: certificate.certificatePEM, keyPEM: certificate.keyPEM), port: taken)
        guard case .cannotListen(let address, _)? = refusal else { Issue.record("expected cannotListen, got \(String(describing: refusal))"); return }
        #expect(address == "127.0.0.1:\(taken)")
        withExtendedLifetime(plain) {}
    }

    @Test func textThatIsNotPEMFailsAtStart() throws {
        let refusal = Self.startError(GatewayTLS(certificatePEM: "not a certificate", keyPEM: "not a key"))
        guard case .tlsRefused? = refusal else { Issue.record("expected tlsRefused, got \(String(describing: refusal))"); return }
    }

    @Test func anEncryptedKeyStartsWithItsPasswordAndIsRefusedWithAnother() async throws {
        guard Curl.path != nil else { Issue.record("curl is not installed (apt-get install curl)"); return }
        let certificate = try SelfSignedCertificate()
        defer { certificate.remove() }
        let encrypted = try certificate.encryptedKeyPEM(password: "correct horse")
        #expect(encrypted.contains("-----BEGIN ENCRYPTED PRIVATE KEY-----"))

        let wrong = Self.startError(GatewayTLS(certificatePEM: certificate.certificatePEM, keyPEM: encrypted, keyPassword: "battery staple"))
        guard case .tlsRefused? = wrong else { Issue.record("expected tlsRefused, got \(String(describing: wrong))"); return }
        let missing = Self.startError(GatewayTLS(certificatePEM: certificate.certificatePEM, keyPEM: encrypted))
        guard case .tlsRefused? = missing else { Issue.record("expected tlsRefused, got \(String(describing: missing))"); return }

        var configuration = QuoteHTTPGateway.Configuration(listen: HTTPListenAddress(host: "127.0.0.1", port: 0))
        configuration.tls = GatewayTLS(certificatePEM: certificate.certificatePEM, keyPEM: encrypted, keyPassword: "correct horse")
        let http = try QuoteHTTPGateway(configuration: configuration, gateway: Self.unstartedGateway())
        let health = try await Curl.call("https://127.0.0.1:\(http.address.port)/healthz", method: "GET",
                                         options: ["--cacert", certificate.certificate.path])
        #expect(health.status == 200)
        #expect(health.text == "ok\n")
        await http.drain(grace: .zero)
    }

    /// The error starting the gateway with `tls` throws, nil when it starts.
    static func startError(_ tls: GatewayTLS, port: UInt16 = 0) -> HTTPEndpointError? {
        var configuration = QuoteHTTPGateway.Configuration(listen: HTTPListenAddress(host: "127.0.0.1", port: port))
        configuration.tls = tls
        do {
            let http = try QuoteHTTPGateway(configuration: configuration, gateway: unstartedGateway())
            withExtendedLifetime(http) {}
            return nil
        } catch { return error }
    }

    /// Never started: these tests reach no broker.
    static func unstartedGateway() -> QuoteGateway {
        QuoteGateway(configuration: .init(kafka: KafkaConfiguration(["bootstrap.servers": "127.0.0.1:1"])))
    }
}
