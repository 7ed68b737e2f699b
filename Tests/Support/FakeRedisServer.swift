import Foundation

/// A hostile stand-in for Redis on a free loopback port: it reads RESP commands and answers
/// each with what `answer` returns, so tests can serve malformed, huge, endless or trickling
/// replies to the real client. Plain sockets, one thread per connection; stopped on release.
public final class FakeRedisServer: @unchecked Sendable {
    /// What the server sends for one command.
    public enum Reply: Sendable {
        /// These bytes, at once.
        case bytes(Data)
        /// These bytes, one every `interval` (a server that trickles).
        case trickle(Data, interval: Duration)
        /// `chunk` again and again until the client goes away (an endless reply).
        case endless(Data)
        /// Nothing: the connection is closed.
        case close
    }

    public let port: Int
    /// Whether it poses as a one-node cluster (see ``init(cluster:answer:)``).
    public let isCluster: Bool
    /// Its URL: `redis+cluster://` when it poses as a cluster.
    public var url: String { isCluster ? clusterURL : "redis://127.0.0.1:\(port)/0" }
    /// A cluster URL naming it as the seed (the slot map is whatever it answers).
    public var clusterURL: String { "redis+cluster://127.0.0.1:\(port)/" }
    private let listener: Int32
    private let answer: @Sendable ([String]) -> Reply
    private let stopped = NSLock()
    private var isStopped = false
    private var connections: [Int32] = []

    /// Starts listening; `answer` gets each command's arguments as text. With `cluster`, it
    /// answers `CLUSTER SLOTS` itself as a one-node cluster owning all 16,384 slots (and
    /// ``url`` is a cluster URL), so a cluster client reaches the hostile replies `answer` scripts.
    public init(cluster: Bool = false, answer: @escaping @Sendable ([String]) -> Reply) throws {
        self.answer = answer
        isCluster = cluster
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard listener >= 0 else { throw FakeServerError("socket() failed") }
        var yes: Int32 = 1
        setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, length) == 0 && listen(listener, 16) == 0 && getsockname(listener, $0, &length) == 0
            }
        }
        guard bound else {
            close(listener)
            throw FakeServerError("cannot listen on a loopback port")
        }
        self.listener = listener
        port = Int(UInt16(bigEndian: address.sin_port))
        let thread = Thread { [weak self] in self?.acceptLoop() }
        thread.start()
    }

    deinit { stop() }

    /// Closes the listener and every connection.
    public func stop() {
        stopped.lock()
        defer { stopped.unlock() }
        guard !isStopped else { return }
        isStopped = true
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
        for connection in connections { shutdown(connection, Int32(SHUT_RDWR)) }
    }

    /// What a well-behaved server answers to logging in and to `DBSIZE` (`keys`), so a test
    /// only scripts the commands it attacks with; `nil` for other commands.
    public static func login(_ command: [String], keys: Int64 = 0) -> Reply? {
        switch command.first?.uppercased() {
        case "AUTH", "SELECT", "CLIENT": .bytes(status("OK"))
        case "PING": .bytes(status("PONG"))
        case "DBSIZE": .bytes(integer(keys))
        default: nil
        }
    }

    /// Common replies as RESP bytes.
    public static func status(_ text: String) -> Data { Data("+\(text)\r\n".utf8) }
    public static func integer(_ value: Int64) -> Data { Data(":\(value)\r\n".utf8) }
    public static func bulk(_ text: String) -> Data { Data("$\(text.utf8.count)\r\n\(text)\r\n".utf8) }
    public static func error(_ text: String) -> Data { Data("-\(text)\r\n".utf8) }
    public static func array(_ items: [Data]) -> Data {
        items.reduce(into: Data("*\(items.count)\r\n".utf8)) { $0.append($1) }
    }

    /// `CLUSTER SLOTS` with ranges `[first, last]` all served by `host:port`.
    public static func slots(_ ranges: [(Int64, Int64)], host: String = "127.0.0.1", port: Int64) -> Data {
        array(ranges.map { array([integer($0.0), integer($0.1), array([bulk(host), integer(port)])]) })
    }

    // MARK: Private

    /// A one-node cluster's answer to `CLUSTER SLOTS`, when posing as one.
    private func slotMap(_ command: [String]) -> Reply? {
        guard isCluster, command.count == 2, command[0].uppercased() == "CLUSTER", command[1].uppercased() == "SLOTS"
        else { return nil }
        return .bytes(Self.slots([(0, 16_383)], port: Int64(port)))
    }

    private var isRunning: Bool {
        stopped.lock()
        defer { stopped.unlock() }
        return !isStopped
    }

    private func acceptLoop() {
        while isRunning {
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { return }
            stopped.lock()
            connections.append(connection)
            stopped.unlock()
            let thread = Thread { [weak self] in
                guard let self else {
                    close(connection)
                    return
                }
                serve(connection)
                forget(connection)
            }
            thread.start()
        }
    }

    /// Closes `connection` and forgets it under the lock, so ``stop()`` never shuts down the
    /// number once the kernel has given it to another test's socket.
    private func forget(_ connection: Int32) {
        stopped.lock()
        defer { stopped.unlock() }
        connections.removeAll { $0 == connection }
        close(connection)
    }

    private func serve(_ connection: Int32) {
        var parser = CommandParser()
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        while isRunning {
            let count = recv(connection, &buffer, buffer.count, 0)
            guard count > 0 else { return }
            parser.feed(buffer[..<count])
            while let command = parser.next() {
                guard send(slotMap(command) ?? answer(command), on: connection) else { return }
            }
        }
    }

    /// Sends `reply`; `false` once the connection is gone or closed.
    private func send(_ reply: Reply, on connection: Int32) -> Bool {
        switch reply {
        case .bytes(let data): return write(data, on: connection)
        case .trickle(let data, let interval):
            for byte in data {
                guard isRunning, write(Data([byte]), on: connection) else { return false }
                Thread.sleep(
                    forTimeInterval: Double(interval.components.seconds) + Double(interval.components.attoseconds)
                        / 1e18)
            }
            return true
        case .endless(let chunk):
            while isRunning, write(chunk, on: connection) {}
            return false
        case .close: return false
        }
    }

    private func write(_ data: Data, on connection: Int32) -> Bool {
        data.withUnsafeBytes { raw in
            guard let base = raw.baseAddress else { return true }
            var offset = 0
            while offset < raw.count {
                let sent = Glibc.send(connection, base + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                guard sent > 0 else { return false }
                offset += sent
            }
            return true
        }
    }
}

struct FakeServerError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Splits what a client sent into commands (RESP arrays of bulk strings, as hiredis sends them).
private struct CommandParser {
    private var bytes: [UInt8] = []

    mutating func feed(_ more: ArraySlice<UInt8>) { bytes += more }

    /// The next whole command, or `nil` until more bytes arrive.
    mutating func next() -> [String]? {
        var position = 0
        func line() -> String? {
            guard let end = bytes[position...].firstIndex(of: 13), end + 1 < bytes.count else { return nil }
            let text = String(decoding: bytes[position..<end], as: UTF8.self)
            position = end + 2
            return text
        }
        guard let header = line(), header.hasPrefix("*"), let count = Int(header.dropFirst()) else { return nil }
        var arguments: [String] = []
        for _ in 0..<count {
            guard let size = line(), size.hasPrefix("$"), let length = Int(size.dropFirst()),
                position + length + 2 <= bytes.count
            else { return nil }
            arguments.append(String(decoding: bytes[position..<position + length], as: UTF8.self))
            position += length + 2
        }
        bytes.removeFirst(position)
        return arguments
    }
}
