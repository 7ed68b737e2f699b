import CHiredis
import CacheCore
import Foundation

/// One connection to a Redis server: the only type in CacheCore that calls hiredis. It is not
/// thread-safe: its owner (``RedisPool``, or one reader thread) uses it from one thread at a
/// time, which is why it is marked `@unchecked Sendable`.
///
/// Once the connection breaks (I/O error, timeout, protocol error) hiredis cannot use it
/// again: `isBroken` turns true and every later command throws.
package final class RedisConnection: @unchecked Sendable {
    let endpoint: RedisEndpoint
    private let context: UnsafeMutablePointer<redisContext>
    private let timeout: Duration
    private let limits: RedisReplyLimits
    private let budget = UnsafeMutablePointer<ReplyItemBudget>.allocate(capacity: 1)
    /// Set when a reply was abandoned half read (too large, or past its deadline).
    private var isAbandoned = false

    /// Connects, logs in (`AUTH`) and selects the database; `timeout` bounds the connect and
    /// each command's whole reply, which may hold at most `limits`.
    package init(
        endpoint: RedisEndpoint, timeout: Duration, limits: RedisReplyLimits = .standard
    ) throws(RedisError) {
        self.endpoint = endpoint
        self.timeout = timeout
        self.limits = limits
        budget.initialize(to: ReplyItemBudget(left: limits.items))
        let interval = Self.timeval(timeout)
        guard let context = redisConnectWithTimeout(endpoint.host, Int32(endpoint.port), interval) else {
            throw .cannotConnect(endpoint: endpoint.description, reason: "out of memory")
        }
        self.context = context  // from here on, a throw runs deinit, which frees it
        if context.pointee.err != 0 {
            let reason = Self.errorText(context)
            throw reason.contains("timed out")
                ? .timeout(endpoint: endpoint.description)
                : .cannotConnect(endpoint: endpoint.description, reason: reason)
        }
        redisSetTimeout(context, interval)
        redisEnableKeepAlive(context)
        context.pointee.reader.pointee.fn = BudgetedReplyFunctions.table
        context.pointee.reader.pointee.privdata = UnsafeMutableRawPointer(budget)
        try login()
    }

    deinit {
        redisFree(context)
        budget.deallocate()
    }

    /// Whether the connection can no longer be used: broken, or abandoned mid-reply.
    var isBroken: Bool { context.pointee.err != 0 || isAbandoned }

    /// Sends one command and reads its reply; an error reply throws.
    @discardableResult
    package func command(_ arguments: [RedisArgument]) throws(RedisError) -> RedisReply {
        try append([arguments])
        let reply = try readReply(by: ContinuousClock.now + timeout)
        if case .error(let message) = reply {
            throw RedisError(serverMessage: message, endpoint: endpoint.description)
        }
        return reply
    }

    /// Sends `commands` at once and reads their replies in order (one round trip, all within
    /// the timeout); error replies are returned in place, not thrown.
    package func pipeline(_ commands: [[RedisArgument]]) throws(RedisError) -> [RedisReply] {
        try send(commands)
        return try receive(commands.count)
    }

    /// Sends `commands` without reading their replies, so the server works on them while the
    /// caller does something else; ``receive(_:)`` reads them later, in order.
    func send(_ commands: [[RedisArgument]]) throws(RedisError) {
        // Writing to a connection the server closed (replies may still be buffered before its
        // end) would raise SIGPIPE: it is given up instead.
        guard !isHungUp else {
            throw abandon(.connectionLost(endpoint: endpoint.description, reason: "the server closed the connection"))
        }
        try append(commands)
        try flush()
    }

    /// Whether the server has closed its end (Linux' `POLLRDHUP`, seen even with data still
    /// unread before the end).
    private var isHungUp: Bool {
        let hangUp = Int16(0x2000 /* POLLRDHUP */) | Int16(POLLHUP) | Int16(POLLERR)
        var descriptor = pollfd(fd: context.pointee.fd, events: Int16(0x2000), revents: 0)
        return poll(&descriptor, 1, 0) > 0 && descriptor.revents & hangUp != 0
    }

    /// Reads the replies of the next `count` commands sent (all within the timeout); error
    /// replies are returned in place, not thrown.
    func receive(_ count: Int) throws(RedisError) -> [RedisReply] {
        let deadline = ContinuousClock.now + timeout
        var replies: [RedisReply] = []
        replies.reserveCapacity(count)
        for _ in 0..<count { replies.append(try readReply(by: deadline)) }
        return replies
    }

    /// The next message pushed to a subscribed connection, or `nil` when none arrives within
    /// `timeout` (`nil` waits for ever). A quiet connection stays usable.
    func nextMessage(timeout: Duration?) throws(RedisError) -> RedisReply? {
        let deadline = timeout.map { ContinuousClock.now + $0 }
        while true {
            if let reply = try bufferedReply() { return reply }
            let wait = deadline.map { max(.zero, $0 - ContinuousClock.now) }
            var descriptor = pollfd(fd: context.pointee.fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, wait.map { Int32(clamping: $0.milliseconds) } ?? -1)
            if ready == 0 { return nil }
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0, redisBufferRead(context) == REDIS_OK else { throw lost() }
        }
    }

    // MARK: Private

    /// Logs in and selects the database. Only a refusal of `AUTH` is a refused login; what
    /// the server says otherwise (`LOADING`, `NOPERM`, …) is reported as it said it.
    private func login() throws(RedisError) {
        if let password = endpoint.password {
            do {
                try command(["AUTH"] + (endpoint.user.map { [RedisArgument($0)] } ?? []) + [RedisArgument(password)])
            } catch .server(let message) where !message.hasPrefix("LOADING") {
                throw .authenticationFailed(endpoint: endpoint.description, reason: message)
            }
        }
        if endpoint.database != 0 {
            do {
                try command(["SELECT", RedisArgument(endpoint.database)])
            } catch .server(let message)
                where message.contains("invalid DB index") || message.contains("DB index is out of range")
            {
                throw .badURL("database \(endpoint.database) does not exist on \(endpoint)")
            }
        }
        try command(["PING"])
    }

    /// Queues `commands` in hiredis' output buffer (sent by the next read), written as RESP
    /// into one buffer: a pipeline costs one copy, not allocations per command and argument.
    private func append(_ commands: [[RedisArgument]]) throws(RedisError) {
        guard !isBroken else { throw lost() }
        guard !commands.isEmpty else { return }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(commands.reduce(0) { total, arguments in
            arguments.reduce(total + 16) { $0 + $1.bytes.count + 16 }
        })
        for arguments in commands {
            Self.appendHeader("*", arguments.count, to: &bytes)
            for argument in arguments {
                Self.appendHeader("$", argument.bytes.count, to: &bytes)
                bytes.append(contentsOf: argument.bytes)
                bytes.append(13)
                bytes.append(10)
            }
        }
        let code = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { redisAppendFormattedCommand(context, $0.baseAddress, $0.count) }
        }
        guard code == REDIS_OK else { throw lost() }
    }

    /// A RESP header: `mark` (`*` an array, `$` a bulk string), `count` in decimal, CRLF.
    private static func appendHeader(_ mark: Unicode.Scalar, _ count: Int, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: mark))
        // The decimal digits, most significant first, without making a `String`.
        var divisor = 1
        while divisor <= count / 10 { divisor *= 10 }
        while divisor > 0 {
            bytes.append(UInt8(ascii: "0") + UInt8(count / divisor % 10))
            divisor /= 10
        }
        bytes.append(13)
        bytes.append(10)
    }

    /// Writes out what hiredis' output buffer holds.
    private func flush() throws(RedisError) {
        var done: Int32 = 0
        while done == 0 {
            guard redisBufferWrite(context, &done) == REDIS_OK else { throw lost() }
        }
    }

    /// Reads one reply, sending what is queued first; the whole reply must arrive by
    /// `deadline` and stay within the limits, or the connection is abandoned.
    private func readReply(by deadline: ContinuousClock.Instant) throws(RedisError) -> RedisReply {
        try flush()
        var received = 0
        while true {
            if let reply = try bufferedReply() { return reply }
            let left = deadline - ContinuousClock.now
            guard left > .zero else { throw abandon(.timeout(endpoint: endpoint.description)) }
            var descriptor = pollfd(fd: context.pointee.fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, Int32(clamping: max(1, left.milliseconds)))
            if ready < 0 && errno == EINTR { continue }
            guard ready >= 0 else { throw lost() }
            guard ready > 0 else { throw abandon(.timeout(endpoint: endpoint.description)) }
            let before = context.pointee.reader.pointee.len
            guard redisBufferRead(context) == REDIS_OK else { throw lost() }
            received += context.pointee.reader.pointee.len - before
            if received > limits.bytes { throw abandon(tooLarge("\(limits.bytes >> 20) MiB")) }
        }
    }

    /// A reply hiredis has already read off the socket, if any (each reply starts with a
    /// fresh item budget).
    private func bufferedReply() throws(RedisError) -> RedisReply? {
        var raw: UnsafeMutableRawPointer?
        guard redisGetReplyFromReader(context, &raw) == REDIS_OK else {
            if budget.pointee.isExceeded { throw abandon(tooLarge("\(limits.items) items")) }
            throw lost()
        }
        guard let raw else { return nil }
        defer {
            freeReplyObject(raw)
            budget.pointee = ReplyItemBudget(left: limits.items)
        }
        return Self.reply(raw.assumingMemoryBound(to: redisReply.self))
    }

    /// Marks the connection unusable (a reply was left half read) and returns `error`.
    private func abandon(_ error: RedisError) -> RedisError {
        isAbandoned = true
        return error
    }

    private func tooLarge(_ limit: String) -> RedisError {
        .replyTooLarge(endpoint: endpoint.description, limit: limit)
    }

    /// Whether the server closed the connection while it was idle (it restarted, or dropped
    /// idle clients): a read would find the end.
    var isClosedByServer: Bool {
        var descriptor = pollfd(fd: context.pointee.fd, events: Int16(POLLIN), revents: 0)
        guard poll(&descriptor, 1, 0) > 0 else { return false }
        var byte: UInt8 = 0
        return recv(context.pointee.fd, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT)) <= 0
    }

    /// The error for a failed call, read off the context.
    private func lost() -> RedisError {
        let code = context.pointee.err
        let reason = code == 0 ? "the connection was closed" : Self.errorText(context)
        if code == REDIS_ERR_IO && (reason.contains("temporarily unavailable") || reason.contains("timed out")) {
            return .timeout(endpoint: endpoint.description)
        }
        return .connectionLost(endpoint: endpoint.description, reason: reason)
    }

    private static func reply(_ reply: UnsafeMutablePointer<redisReply>) -> RedisReply {
        let value = reply.pointee
        switch value.type {
        case REDIS_REPLY_STRING: return .bulk(bytes(value))
        case REDIS_REPLY_STATUS: return .status(String(decoding: bytes(value), as: UTF8.self))
        case REDIS_REPLY_ERROR: return .error(String(decoding: bytes(value), as: UTF8.self))
        case REDIS_REPLY_INTEGER: return .integer(value.integer)
        case REDIS_REPLY_ARRAY:
            guard let elements = value.element else { return .array([]) }
            return .array((0..<value.elements).compactMap { index in elements[index].map(Self.reply) })
        default: return .null
        }
    }

    private static func bytes(_ reply: redisReply) -> Data {
        guard let text = reply.str else { return Data() }
        return Data(bytes: text, count: reply.len)
    }

    private static func errorText(_ context: UnsafeMutablePointer<redisContext>) -> String {
        withUnsafeBytes(of: context.pointee.errstr) { bytes in
            RedisError.oneLine(String(decoding: bytes.prefix(while: { $0 != 0 }), as: UTF8.self))
        }
    }

    private static func timeval(_ duration: Duration) -> timeval {
        let microseconds = max(1000, duration.milliseconds * 1000)
        return Foundation.timeval(tv_sec: Int(microseconds / 1_000_000), tv_usec: Int(microseconds % 1_000_000))
    }
}
