/// Why an endpoint could not start; each case names what the operator configured.
public enum HTTPEndpointError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The listen address is not `HOST:PORT` (or `[IPv6]:PORT`).
    case invalidAddress(String, reason: String)
    /// The host name did not resolve to an address this machine can bind.
    case unresolvableHost(String, reason: String)
    /// Binding or listening failed, most often because the port is taken.
    case cannotListen(String, reason: String)
    /// A TLS certificate and key were given, but this libmicrohttpd was built without GnuTLS.
    case tlsUnsupported(String)
    /// GnuTLS refused the certificate or the key (not PEM, a key that is not the certificate's,
    /// an encrypted key without its password).
    case tlsRefused(reason: String)

    public var description: String {
        switch self {
        case .invalidAddress(let text, let reason): "listen address '\(text)': \(reason)"
        case .unresolvableHost(let host, let reason): "listen host '\(host)' does not resolve: \(reason)"
        case .cannotListen(let address, let reason): "cannot listen on \(address): \(reason)"
        case .tlsUnsupported(let what): "\(what): this libmicrohttpd has no TLS support (install a build with GnuTLS, e.g. Debian's libmicrohttpd12)"
        case .tlsRefused(let reason): "the TLS certificate and key were refused: \(reason)"
        }
    }
}
