extension SQLiteConnection {
    /// Runs `body` in one read transaction, so several statements see the same snapshot
    /// (ended before returning: no read transaction outlives the call).
    func readTransaction<T>(_ body: () throws -> T) throws -> T {
        if isInTransaction { return try body() }
        try execute("BEGIN")
        defer { try? execute("COMMIT") }
        return try body()
    }
}
