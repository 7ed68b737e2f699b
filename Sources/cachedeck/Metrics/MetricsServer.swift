import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A minimal HTTP/1.1 server for scrapes: `GET /metrics` answers with the text `body` makes
/// (503 with its error when it throws), one connection at a time, each closed after its
/// answer. A client gets 2 s to send its request; requests over 8 KiB are refused. IPv4 only.
final class MetricsServer {
    /// The address and port it listens on (the port the system chose, for port 0).
    let address: String
    let port: Int
    private let descriptor: Int32

    /// The content type of the Prometheus text format.
    static let contentType = "text/plain; version=0.0.4; charset=utf-8"

    /// Listens on `listen` (`HOST:PORT`, HOST an IPv4 address or `localhost`).
    init(listen endpoint: String) throws {
        guard let colon = endpoint.lastIndex(of: ":"), let port = UInt16(endpoint[endpoint.index(after: colon)...])
        else {
            throw Failure("--listen takes HOST:PORT (127.0.0.1:9464), not '\(endpoint)'")
        }
        let host = endpoint[..<colon] == "localhost" ? "127.0.0.1" : String(endpoint[..<colon])
        var socketAddress = sockaddr_in()
        socketAddress.sin_family = sa_family_t(AF_INET)
        socketAddress.sin_port = port.bigEndian
        guard inet_pton(AF_INET, host, &socketAddress.sin_addr) == 1 else {
            throw Failure("--listen needs an IPv4 address or localhost, not '\(host)'")
        }
        #if canImport(Glibc)
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        #else
        let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw Failure("cannot open a socket: \(String(cString: strerror(errno)))") }
        var yes: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        let bound = withUnsafePointer(to: &socketAddress) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(descriptor, 16) == 0 else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw Failure("cannot listen on \(endpoint): \(reason)")
        }
        var actual = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &actual) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        self.descriptor = descriptor
        self.address = host
        self.port = Int(UInt16(bigEndian: actual.sin_port))
    }

    deinit { close(descriptor) }

    /// Answers requests until `stopped` says so (checked at least every 250 ms).
    func serve(until stopped: () -> Bool, body: () throws -> String) {
        while !stopped() {
            var waiting = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&waiting, 1, 250) > 0 else { continue }
            let client = accept(descriptor, nil, nil)
            guard client >= 0 else { continue }
            answer(client, body: body)
            close(client)
        }
    }

    /// Reads one request from `client` and writes the answer.
    private func answer(_ client: Int32, body: () throws -> String) {
        var limit = timeval(tv_sec: 2, tv_usec: 0)
        setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(client, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        var request: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while request.count <= 8192, !request.ends(with: [13, 10, 13, 10]) {
            let count = read(client, &chunk, chunk.count)
            guard count > 0 else { break }
            request += chunk[..<count]
        }
        let line = String(decoding: request.prefix { $0 != 13 && $0 != 10 }, as: UTF8.self).split(separator: " ")
        guard request.count <= 8192, request.ends(with: [13, 10, 13, 10]), line.count == 3 else {
            return write(client, status: "400 Bad Request", body: "bad request\n")
        }
        let (method, path) = (line[0], line[1].split(separator: "?", maxSplits: 1).first ?? "")
        guard method == "GET" || method == "HEAD" else {
            return write(client, status: "405 Method Not Allowed", body: "GET /metrics\n", head: false)
        }
        switch path {
        case "/metrics":
            do {
                write(client, status: "200 OK", body: try body(), type: Self.contentType, head: method == "HEAD")
            } catch {
                write(client, status: "503 Service Unavailable", body: "cachedeck: \(Failure.describe(error))\n")
            }
        case "/":
            write(client, status: "200 OK", body: "cachedeck metrics: GET /metrics\n", head: method == "HEAD")
        default:
            write(client, status: "404 Not Found", body: "not found: the metrics are at /metrics\n")
        }
    }

    private func write(
        _ client: Int32, status: String, body: String, type: String = "text/plain; charset=utf-8", head: Bool = false
    ) {
        let payload = Array(body.utf8)
        let header =
            "HTTP/1.1 \(status)\r\nContent-Type: \(type)\r\nContent-Length: \(payload.count)\r\n"
            + "Connection: close\r\n\r\n"
        let bytes = Array(header.utf8) + (head ? [] : payload)
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard count > 0 else { return }
            sent += count
        }
    }
}

extension Array where Element == UInt8 {
    /// Whether the bytes end with `suffix`.
    fileprivate func ends(with suffix: [UInt8]) -> Bool {
        count >= suffix.count && self[(count - suffix.count)...].elementsEqual(suffix)
    }
}
