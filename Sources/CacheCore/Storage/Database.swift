import Synchronization

/// The connections of one open cache file: a single writer behind a lock and a pool of
/// readers, so reads on many threads run in parallel (WAL) and never wait for a writer.
///
/// Every call borrows a connection for its own duration only; no read transaction stays
/// open between calls. SQLite failures leave here as ``CacheError``.
final class Database: Sendable {
    let path: String
    let busyTimeout: Duration
    /// Read through `immutable=1` connections (see ``StoreFile``): a read-only store on a file
    /// whose `-shm` can be neither found nor created.
    let isImmutable: Bool
    /// The file's format: the current one for a writer, which migrated it; for a read-only
    /// store, as the file was when it opened.
    let formatVersion: Int
    /// Whether the file has the `sort_value` column (format 7).
    var hasSortValues: Bool { formatVersion >= Schema.sortValuesVersion }
    /// Whether `entry_tags` holds each entry's namespace and key (format 9, ``TagRange``).
    var hasTagKeys: Bool { formatVersion >= Schema.tagKeysVersion }
    private let writer: SQLiteConnection?
    /// The room kept for removals on the file's filesystem (`nil` for a read-only store).
    let room: DiskRoom?
    /// Sampled eviction's candidates, kept between the writer's evictions.
    let evictionPools = EvictionPools()
    private let writerLock = Mutex(())
    private let idleReaders = Mutex<[SQLiteConnection]>([])
    private let closed = Atomic(false)
    private static let maxIdleReaders = 8

    /// Wraps an already opened and validated writer, or `nil` for a read-only store.
    init(
        path: String, writer: SQLiteConnection?, busyTimeout: Duration, immutable: Bool = false, room: DiskRoom? = nil,
        formatVersion: Int = Schema.currentVersion
    ) {
        self.formatVersion = writer == nil ? formatVersion : Schema.currentVersion
        self.path = path
        self.writer = writer
        self.room = writer == nil ? nil : room
        self.busyTimeout = busyTimeout
        self.isImmutable = immutable && writer == nil
    }

    var isReadOnly: Bool { writer == nil }

    /// Runs `body` on an idle reader connection.
    func read<T: Sendable>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        let connection = try checkoutReader()
        defer { checkin(connection) }
        do {
            return try body(connection)
        } catch {
            throw mapped(error)
        }
    }

    /// Runs a short point read: on the writer when no write holds it, since the writer's page
    /// cache already holds this process's latest writes (a reader's is emptied by every
    /// commit); else on an idle reader. Never waits for a writer. Keep `body` to a lookup: it
    /// holds back this process's writes while it runs.
    func lookup<T: Sendable>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        if let writer {
            try ensureOpen()
            let result: T? = try writerLock.withLockIfAvailable { _ in
                do {
                    return try body(writer)
                } catch {
                    throw mapped(error)
                }
            }
            if let result { return result }
        }
        return try read(body)
    }

    /// Runs `body` on the writer. Single statements commit on their own; wrap several in
    /// ``SQLiteConnection/writeTransaction(_:)``.
    ///
    /// A write that adds data (about `adding` bytes of keys and values) is refused with
    /// ``CacheError/diskFull(path:)`` when it would leave the disk short of the room kept for
    /// removals; removals pass `usingReserve` (see ``DiskRoom``).
    func write<T: Sendable>(
        usingReserve: Bool = false, adding: Int = 0, _ body: (SQLiteConnection) throws -> T
    ) throws -> T {
        guard let writer else { throw CacheError.readOnly(path: path) }
        try ensureOpen()
        return try writerLock.withLock { _ in
            if !usingReserve, room?.refusesAdditions(of: adding, on: writer) == true {
                throw CacheError.diskFull(path: path)
            }
            let result: T
            do {
                result = try body(writer)
            } catch {
                if (error as? SQLiteError)?.isDiskFull == true || error as? CacheError == .diskFull(path: path) {
                    room?.noteFull()
                }
                throw mapped(error)
            }
            if !writer.isInTransaction { room?.afterWrite(on: writer) }
            return result
        }
    }

    /// Refuses further calls and releases idle readers. Calls already running finish.
    func close() {
        closed.store(true, ordering: .releasing)
        idleReaders.withLock { $0.removeAll() }
    }

    private func ensureOpen() throws {
        if closed.load(ordering: .acquiring) {
            throw CacheError.cannotOpen(path: path, reason: "the store was closed")
        }
    }

    private func checkoutReader() throws -> SQLiteConnection {
        try ensureOpen()
        if let connection = idleReaders.withLock({ $0.popLast() }) { return connection }
        do {
            let connection = try openReader()
            try connection.configureReader()
            return connection
        } catch {
            throw mapped(error)
        }
    }

    /// A new read-only connection to the file, opened the way this store reads it.
    func openReader() throws -> SQLiteConnection {
        try SQLiteConnection(
            path: path, readOnly: true, create: false, busyTimeout: busyTimeout, immutable: isImmutable)
    }

    private func checkin(_ connection: SQLiteConnection) {
        idleReaders.withLock { idle in
            if idle.count < Self.maxIdleReaders { idle.append(connection) }
        }
    }

    private func mapped(_ error: any Error) -> any Error {
        guard let error = error as? SQLiteError else { return error }
        if error.isCorrupt && writer != nil { DamageMarker.record(path) }
        return CacheError(error, path: path)
    }
}
