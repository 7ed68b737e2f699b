/// How many calls a `SCAN` may take: Redis ends every scan (its cursor comes back to 0), but a
/// server is not trusted to. The bound is generous for a real server, one call per ten keys
/// the database held when the scan began, plus 1,000 (a table emptied by mass deletes can
/// take a few hundred calls until Redis shrinks it).
struct ScanLimit {
    let calls: Int

    init(keysInDatabase: Int64?) {
        calls = 1000 + Int(clamping: max(0, keysInDatabase ?? 0) / 10)
    }

    /// The bound of a `SCAN` of the database `connection` is on (one `DBSIZE`), or of an
    /// `SSCAN` of `set` (one `SCARD`).
    init(on connection: RedisConnection, set: String? = nil) throws(RedisError) {
        let size = try connection.command(set.map { ["SCARD", RedisArgument($0)] } ?? ["DBSIZE"]).integer
        self.init(keysInDatabase: size)
    }

    /// Throws once `calls` calls have not brought the cursor back to 0.
    func check(_ made: Int, endpoint: String) throws(RedisError) {
        guard made >= calls else { return }
        throw .server(
            "SCAN did not end after \(made) calls (its cursor never came back to 0 on \(endpoint)); stopped")
    }
}
