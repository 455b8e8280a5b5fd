import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MetricsHTTP
import Testing

/// The endpoint over a real socket on 127.0.0.1, read with curl-free Foundation.
@Suite struct HTTPEndpointTests {
    @Test func servesItsRoutesOnAnEphemeralPortAndAnswers404Elsewhere() throws {
        let endpoint = try HTTPEndpoint(listen: HTTPListenAddress(host: "127.0.0.1", port: 0), routes: [
            "/hello": { .text("hi\n") },
            "/teapot": { HTTPResponse(status: 418, contentType: "application/json", body: Array("{}".utf8)) },
        ])
        defer { endpoint.stop() }
        #expect(endpoint.address.port != 0)

        let hello = try HTTPGet.fetch(port: endpoint.address.port, path: "/hello")
        #expect(hello.status == 200)
        #expect(hello.body == "hi\n")
        #expect(hello.contentType == "text/plain; charset=utf-8")

        let teapot = try HTTPGet.fetch(port: endpoint.address.port, path: "/teapot")
        #expect(teapot.status == 418)
        #expect(teapot.contentType == "application/json")

        #expect(try HTTPGet.fetch(port: endpoint.address.port, path: "/nowhere").status == 404)
        #expect(try HTTPGet.fetch(port: endpoint.address.port, path: "/hello", method: "POST").status == 405)
    }

    @Test func aTakenPortIsReportedWithTheAddress() throws {
        let first = try HTTPEndpoint(listen: HTTPListenAddress(host: "127.0.0.1", port: 0), routes: [:])
        defer { first.stop() }
        #expect(throws: HTTPEndpointError.self) {
            try HTTPEndpoint(listen: first.address, routes: [:])
        }
    }

    @Test func stopClosesTheListenerAndMayBeRepeated() throws {
        let endpoint = try HTTPEndpoint(listen: HTTPListenAddress(host: "127.0.0.1", port: 0), routes: ["/": { .text("up") }])
        let port = endpoint.address.port
        #expect(try HTTPGet.fetch(port: port, path: "/").status == 200)
        endpoint.stop()
        endpoint.stop()
        #expect(throws: (any Error).self) { try HTTPGet.fetch(port: port, path: "/") }
    }

    @Test func listenAddressesParse() throws {
        #expect(try HTTPListenAddress(parsing: "127.0.0.1:9464") == HTTPListenAddress(host: "127.0.0.1", port: 9464))
        #expect(try HTTPListenAddress(parsing: ":9464") == HTTPListenAddress(host: "0.0.0.0", port: 9464))
        #expect(try HTTPListenAddress(parsing: "[::1]:0") == HTTPListenAddress(host: "::1", port: 0))
        #expect(try HTTPListenAddress(parsing: "[::1]:0").description == "[::1]:0")
        for bad in ["9464", "host:", "host:70000", "::1:80", "[::1]80"] {
            #expect(throws: HTTPEndpointError.self, "\(bad)") { try HTTPListenAddress(parsing: bad) }
        }
    }
}

/// A blocking GET with a time limit, through URLSession.
enum HTTPGet {
    struct Answer { let status: Int; let contentType: String?; let body: String }

    static func fetch(port: UInt16, path: String, method: String = "GET") throws -> Answer {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)\(path)")!, timeoutInterval: 10)
        request.httpMethod = method
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var result: Result<Answer, any Error> = .failure(URLError(.timedOut))
        let task = URLSession.shared.dataTask(with: request) { data, response, error in
            if let http = response as? HTTPURLResponse {
                result = .success(Answer(status: http.statusCode, contentType: http.value(forHTTPHeaderField: "Content-Type"),
                                         body: String(decoding: data ?? Data(), as: UTF8.self)))
            } else {
                result = .failure(error ?? URLError(.badServerResponse))
            }
            done.signal()
        }
        task.resume()
        done.wait()
        return try result.get()
    }
}
