import CacheCore
import Foundation

extension RedisConnection {
    /// Walks a whole `SCAN` of the keys matching `pattern` (a glob), `count` a call, handing
    /// each call's keys to `body`; bounded by ``ScanLimit`` (one `DBSIZE` first).
    func scanAll(matching pattern: String, count: Int = 1000, _ body: ([Data]) throws -> Void) throws {
        var cursor = ScanCursor()
        cursor.keysInDatabase = try command(["DBSIZE"]).integer
        repeat {
            let reply = try command(cursor.command(match: Data(pattern.utf8), count: count))
            let keys = try cursor.advance(with: reply, from: endpoint.description)
            if !keys.isEmpty { try body(keys) }
        } while !cursor.isComplete
    }
}
