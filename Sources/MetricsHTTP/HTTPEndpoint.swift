import CMicroHTTPD
import Foundation
import Synchronization

/// A small HTTP server for GET routes, over libmicrohttpd. It knows paths and bodies, nothing
/// of what it serves; unknown paths get 404, other methods 405. Handlers run on libmicrohttpd's
/// own thread, one request at a time, so they must be quick and thread-safe.
/// All of the package's HTTP pointers live in this file.
public final class HTTPEndpoint: Sendable {
    public typealias Handler = @Sendable () -> HTTPResponse

    /// The address actually bound: with port 0 requested, the port the system chose.
    public let address: HTTPListenAddress
    private let daemon: Mutex<UnsafeDaemon?>
    private let routes: RouteTable

    public init(listen: HTTPListenAddress, routes: [String: Handler]) throws(HTTPEndpointError) {
        let table = RouteTable(routes)
        let resolved = try listen.socketAddress()
        var flags = UInt32(MHD_USE_AUTO_INTERNAL_THREAD.rawValue)
        if resolved.family == AF_INET6 { flags |= UInt32(MHD_USE_IPv6.rawValue) }
        let context = Unmanaged.passUnretained(table).toOpaque()
        let started: OpaquePointer? = resolved.storage.withUnsafeBytes { raw in
            shipquote_mhd_start(flags, raw.baseAddress!.assumingMemoryBound(to: sockaddr.self), accessHandler, context)
        }
        guard let started else { throw .startFailed(listen) }
        self.routes = table
        self.daemon = Mutex(UnsafeDaemon(pointer: started))
        self.address = HTTPListenAddress(host: listen.host, port: shipquote_mhd_bound_port(started))
    }

    deinit { stop() }

    /// Closes the listener; waits for a request being answered. Calling it again does nothing.
    public func stop() {
        let running = daemon.withLock { current -> UnsafeDaemon? in defer { current = nil }; return current }
        if let running { MHD_stop_daemon(running.pointer) }
        withExtendedLifetime(routes) {}
    }
}

extension HTTPListenAddress {
    /// The socket address to bind (the first the host resolves to) and its family.
    public func socketAddress() throws(HTTPEndpointError) -> (storage: [UInt8], family: Int32) {
        var hints = addrinfo()
        hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let first = list else {
            throw .unresolvableHost(host, reason: String(cString: gai_strerror(status)))
        }
        defer { freeaddrinfo(list) }
        let bytes = Array(UnsafeRawBufferPointer(start: first.pointee.ai_addr, count: Int(first.pointee.ai_addrlen)))
        return (bytes, first.pointee.ai_family)
    }
}

extension HTTPEndpointError {
    /// libmicrohttpd returned no daemon: the reason is errno's, when it set one.
    public static func startFailed(_ listen: HTTPListenAddress) -> HTTPEndpointError {
        .cannotListen(listen.description, reason: errno == 0 ? "libmicrohttpd refused to start" : String(cString: strerror(errno)))
    }
}

/// The daemon handle; only `HTTPEndpoint` touches it, under its lock.
private struct UnsafeDaemon: @unchecked Sendable {
    let pointer: OpaquePointer
}

/// The routes, reached from libmicrohttpd's callback through its context pointer.
final class RouteTable: Sendable {
    private let handlers: [String: HTTPEndpoint.Handler]

    init(_ handlers: [String: HTTPEndpoint.Handler]) { self.handlers = handlers }

    func respond(method: String, path: String) -> HTTPResponse {
        guard let handler = handlers[path] else { return .notFound }
        guard method == "GET" || method == "HEAD" else { return .methodNotAllowed }
        return handler()
    }
}

private let accessHandler: MHD_AccessHandlerCallback = { context, connection, url, method, _, _, _, _ in
    guard let context, let connection else { return .NO }
    let table = Unmanaged<RouteTable>.fromOpaque(context).takeUnretainedValue()
    let answer = table.respond(method: method.map { String(cString: $0) } ?? "",
                               path: url.map { String(cString: $0) } ?? "/")
    let response = answer.body.withUnsafeBytes { body in
        MHD_create_response_from_buffer(body.count, UnsafeMutableRawPointer(mutating: body.baseAddress),
                                        .RESPMEM_MUST_COPY)
    }
    guard let response else { return .NO }
    defer { MHD_destroy_response(response) }
    _ = MHD_add_response_header(response, MHD_HTTP_HEADER_CONTENT_TYPE, answer.contentType)
    _ = MHD_add_response_header(response, "Cache-Control", "no-store")
    return MHD_queue_response(connection, UInt32(answer.status), response)
}
