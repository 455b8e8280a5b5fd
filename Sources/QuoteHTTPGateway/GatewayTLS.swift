/// What `shipquote gateway` serves HTTPS with: a certificate (chain) and its private key, both
/// PEM, and the key's password when it is encrypted. Without it the gateway speaks plain HTTP
/// (behind a TLS-terminating load balancer, or on a private network).
public struct GatewayTLS: Sendable {
    public var certificatePEM: String
    public var keyPEM: String
    public var keyPassword: String?

    public init(certificatePEM: String, keyPEM: String, keyPassword: String? = nil) {
        self.certificatePEM = certificatePEM
        self.keyPEM = keyPEM
        self.keyPassword = keyPassword
    }
}
