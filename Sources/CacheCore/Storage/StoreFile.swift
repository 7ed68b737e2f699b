import Foundation
import Logging

/// Opens a cache file: checks the path, recognises (or refuses) what is there, quarantines a
/// damaged file when allowed, creates or migrates the format, and configures WAL.
enum StoreFile {
    struct Opened {
        let database: Database
        let quarantined: QuarantinedFile?
    }

    static func open(path: String, options: StoreOptions) throws -> Opened {
        try checkPath(path, options: options)
        try options.fileTrust.verify(path)
        do {
            let (database, repaired) = try openRecognizingDamagedHeader(path: path, options: options)
            if repaired != nil { return Opened(database: database, quarantined: repaired) }
            guard options.onDamagedFile == .quarantine, !options.readOnly else {
                return Opened(database: database, quarantined: nil)
            }
            let damaged = try database.read { try Salvage.damagedRoots($0) }
            let marked = DamageMarker.isRecorded(path)
            guard !damaged.isEmpty || marked else { return Opened(database: database, quarantined: nil) }
            database.close()
            let reason =
                damaged.isEmpty
                ? "damaged pages a store met while using it"
                : "damaged pages (\(damaged.joined(separator: ", ")))"
            let report = try salvage(path: path, reason: reason, options: options)
            options.logger.error(
                "cache file was damaged; its readable entries were salvaged into a fresh file",
                metadata: [
                    "path": "\(path)", "movedTo": "\(report.movedTo)", "salvaged": "\(report.salvagedEntries ?? 0)",
                ])
            return Opened(database: try openValidated(path: path, options: options), quarantined: report)
        } catch let damage as DamagedFile {
            guard options.onDamagedFile == .quarantine, !options.readOnly else {
                throw CacheError.notACacheFile(path: path, reason: damage.reason)
            }
            let report = try quarantine(
                path: path, reason: damage.reason, clock: options.clock, keeping: options.keptQuarantinedFiles)
            options.logger.error(
                "cache file was damaged and has been moved aside",
                metadata: ["path": "\(path)", "movedTo": "\(report.movedTo)", "reason": "\(damage.reason)"])
            try checkPath(path, options: options)
            return Opened(database: try openValidated(path: path, options: options), quarantined: report)
        } catch CacheError.notACacheFile(_, let reason) where options.replacesForeignFile && !options.readOnly {
            guard !isSymbolicLink(path) else { throw CacheError.notACacheFile(path: path, reason: reason) }
            let report = try quarantine(
                path: path, reason: reason, clock: options.clock, keeping: options.keptQuarantinedFiles)
            options.logger.warning(
                "a file that is not a cache was at the cache's path; it was moved aside for a fresh cache",
                metadata: ["path": "\(path)", "movedTo": "\(report.movedTo)", "reason": "\(reason)"])
            try checkPath(path, options: options)
            return Opened(database: try openValidated(path: path, options: options), quarantined: report)
        }
    }

    private static func isSymbolicLink(_ path: String) -> Bool {
        var link = stat()
        return lstat(path, &link) == 0 && link.st_mode & S_IFMT == S_IFLNK
    }

    /// The file is not a readable database (as opposed to someone else's valid database).
    private struct DamagedFile: Error {
        let reason: String
    }

    /// ``openValidated(path:options:)``, except that a file whose header (page 1) is damaged,
    /// or whose `-wal` is another database's, while its tables read is a damaged cache, not
    /// someone else's file: salvaged when the options allow, else ``CacheError/damaged(path:reason:)``.
    private static func openRecognizingDamagedHeader(path: String, options: StoreOptions) throws -> (
        Database, QuarantinedFile?
    ) {
        do {
            return (try openValidated(path: path, options: options), nil)
        } catch {
            guard let (copy, reason) = HeaderRepair.readableCopy(of: path) else { throw error }
            try? FileManager.default.removeItem(atPath: copy)
            guard options.onDamagedFile == .quarantine, !options.readOnly else {
                throw CacheError.damaged(path: path, reason: reason)
            }
            let report = try salvage(path: path, reason: reason, options: options)
            options.logger.error(
                "cache file had a damaged header; its readable entries were salvaged into a fresh file",
                metadata: [
                    "path": "\(path)", "movedTo": "\(report.movedTo)", "salvaged": "\(report.salvagedEntries ?? 0)",
                ])
            return (try openValidated(path: path, options: options), report)
        }
    }

    // MARK: Path checks, with reasons a person understands

    private static func checkPath(_ path: String, options: StoreOptions) throws {
        var info = stat()
        guard stat(path, &info) == 0 else {
            let failure = errno
            guard failure == ENOENT else { throw CacheError.cannotOpen(path: path, reason: describe(failure)) }
            try create(path, options: options)
            return
        }
        switch info.st_mode & S_IFMT {
        case S_IFREG:
            // SQLite would write a new cache into the link's target: someone's empty file.
            if info.st_size == 0 && isSymbolicLink(path) {
                throw CacheError.notACacheFile(
                    path: path, reason: "it is a symbolic link to an empty file (not written through)")
            }
        case S_IFDIR: throw CacheError.cannotOpen(path: path, reason: "it is a directory")
        default: throw CacheError.cannotOpen(path: path, reason: "it is not a regular file")
        }
        if access(path, R_OK) != 0 { throw CacheError.cannotOpen(path: path, reason: describe(errno)) }
        if !options.readOnly && access(path, W_OK) != 0 { throw CacheError.readOnly(path: path) }
    }

    /// Creates a missing file (mode 0600), when the options allow it. `O_EXCL | O_NOFOLLOW`:
    /// a dangling symlink planted at the path is refused rather than followed (which would
    /// create its target in another folder), and a file created meanwhile is not adopted here.
    private static func create(_ path: String, options: StoreOptions) throws {
        guard options.createIfMissing, !options.readOnly else {
            throw CacheError.cannotOpen(path: path, reason: "no such file")
        }
        let folder = (path as NSString).deletingLastPathComponent
        if !folder.isEmpty && !FileManager.default.fileExists(atPath: folder) {
            throw CacheError.cannotOpen(path: path, reason: "the folder \(folder) does not exist")
        }
        let descriptor = Foundation.open(path, O_CREAT | O_EXCL | O_NOFOLLOW | O_RDWR | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            let failure = errno
            var link = stat()
            if lstat(path, &link) == 0 && link.st_mode & S_IFMT == S_IFLNK {
                throw CacheError.cannotOpen(
                    path: path, reason: "it is a symbolic link to a missing file (not followed)")
            }
            // Another process created it first: open what it made, as if it had been there.
            if failure == EEXIST { return }
            throw CacheError.cannotOpen(path: path, reason: describe(failure))
        }
        Foundation.close(descriptor)
    }

    /// `errno` in words, lower case like the rest of the line.
    private static func describe(_ code: Int32) -> String {
        switch code {
        case EACCES, EPERM: "permission denied"
        case ENOTDIR: "a part of the path is not a folder"
        default: String(cString: strerror(code)).lowercased()
        }
    }

    // MARK: Recognise, create or migrate

    private static func openValidated(path: String, options: StoreOptions) throws -> Database {
        // Read before SQLite reads the file and compared after, so a size seen while another
        // process extends the file is not mistaken for a truncation.
        let before = FileHeader.read(path)
        var immutable = false
        var connection = try connect(path, options: options, immutable: false)
        // Until the file is known to be a cache, closing must not checkpoint its `-wal` into
        // it (a foreign `-wal` would overwrite the cache's pages).
        connection.checkpointsOnClose(false)
        var header: SchemaHeader
        do {
            header = try readHeader(connection, path: path)
        } catch let error as SQLiteError where options.readOnly && error.isWALIndexUnavailable {
            // A read-only reader of a WAL file needs `-shm`; where it is missing and the folder
            // is not writable, the file can still be read as immutable if no `-wal` holds
            // changes that only the missing index would find.
            guard walIsEmpty(path) else {
                throw CacheError.cannotOpen(
                    path: path,
                    reason: "reading it needs \(path)-shm, which is missing and cannot be created here")
            }
            immutable = true
            connection = try connect(path, options: options, immutable: true)
            header = try mapped(path) { try readHeader(connection, path: path) }
        } catch let error as SQLiteError {
            throw CacheError(error, path: path)
        }
        // Identity first: other applications' databases often have a user_version of their own.
        if header.applicationID != Schema.applicationID && !header.isEmpty {
            throw CacheError.notACacheFile(path: path, reason: try foreignContent(connection, path: path))
        }
        if header.version > Schema.currentVersion {
            throw CacheError.newerFormat(path: path, found: header.version, supported: Schema.currentVersion)
        }
        if header.version < 0 { throw DamagedFile(reason: "its format version (\(header.version)) is damaged") }
        // SQLite reads a file cut inside its last page as if the tail were zeros: refuse it.
        if header.applicationID == Schema.applicationID, let before, let truncation = before.partialPage,
            FileHeader.read(path) == before
        {
            throw DamagedFile(reason: truncation)
        }
        if header.isEmpty && (options.readOnly || !options.createIfMissing) {
            throw CacheError.notACacheFile(
                path: path, reason: before?.fileSize == 0 ? "the file is empty" : "it is an empty SQLite database")
        }
        connection.checkpointsOnClose(true)
        if options.readOnly {
            guard header.version >= Schema.oldestReadableVersion else {
                throw CacheError.cannotOpen(
                    path: path,
                    reason:
                        "format \(header.version) must be upgraded to \(Schema.currentVersion); open it read-write once"
                )
            }
            return Database(
                path: path, writer: nil, busyTimeout: options.busyTimeout, immutable: immutable,
                formatVersion: header.version)
        }
        try mapped(path) {
            try connection.configureWriter()
            if header.isEmpty { try connection.useIncrementalVacuum() }
            if header.version < Schema.currentVersion { try migrate(connection, path: path) }
            try enableWAL(connection, busyTimeout: options.busyTimeout)
            try moveFormat3Trash(connection, options: options)
        }
        return Database(
            path: path, writer: connection, busyTimeout: options.busyTimeout,
            room: DiskRoom(path: path, reserve: options.diskReserve))
    }

    private static func connect(_ path: String, options: StoreOptions, immutable: Bool) throws -> SQLiteConnection {
        try mapped(path) {
            try SQLiteConnection(
                path: path, readOnly: options.readOnly, create: false, busyTimeout: options.busyTimeout,
                immutable: immutable)
        }
    }

    /// Runs `body`, turning a SQLite failure into the ``CacheError`` for `path`.
    private static func mapped<T>(_ path: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as SQLiteError {
            throw CacheError(error, path: path)
        }
    }

    /// Whether `path-wal` is missing or empty (nothing committed that the file lacks).
    private static func walIsEmpty(_ path: String) -> Bool {
        var info = stat()
        return stat(path + "-wal", &info) != 0 || info.st_size == 0
    }

    /// Reads identity, version and emptiness (``SQLiteConnection/schemaHeader()``), telling a
    /// damaged or foreign file apart.
    private static func readHeader(_ connection: SQLiteConnection, path: String) throws -> SchemaHeader {
        do {
            return try connection.schemaHeader()
        } catch let error as SQLiteError where error.isNotADatabase || error.isCorrupt {
            if let truncation = FileHeader.read(path)?.truncation { throw DamagedFile(reason: truncation) }
            throw DamagedFile(reason: error.isCorrupt ? "the database is corrupt" : "it is not a SQLite database")
        }
    }

    /// What a SQLite file that is not a cache holds: python-diskcache's tables by name, else
    /// the first few table names (printable ASCII only: they are someone else's bytes).
    private static func foreignContent(_ connection: SQLiteConnection, path: String) throws -> String {
        let tables = try mapped(path) { try connection.tableNames() }
        if Set(tables).isSuperset(of: ["Cache", "Settings"]) { return "it is a python-diskcache cache" }
        guard !tables.isEmpty else { return "it holds another application's data" }
        let shown = tables.prefix(3).map { name in
            String(
                String.UnicodeScalarView(
                    name.unicodeScalars.prefix(40).map { (0x20..<0x7F).contains($0.value) ? $0 : "?" }))
        }
        let more = tables.count > shown.count ? ", …" : ""
        return "it holds another application's tables (\(shown.joined(separator: ", "))\(more))"
    }

    /// Applies the missing migrations under a write lock; other processes racing to create
    /// the same new file wait on the lock and then find it done.
    static func migrate(_ connection: SQLiteConnection, path: String) throws {
        try connection.writeTransaction {
            let version = try connection.formatVersion()
            if version < 0 {
                throw CacheError.damaged(path: path, reason: "its format version (\(version)) is damaged")
            }
            if version > Schema.currentVersion {
                throw CacheError.newerFormat(path: path, found: version, supported: Schema.currentVersion)
            }
            for migration in Schema.migrations.dropFirst(version) { try connection.execute(migration) }
            if version < Schema.currentVersion { try Format3Trash.dropIfEmpty(connection) }
            if version > 0 && version < NormalizedKeys.version { try NormalizedKeys.normalize(connection) }
            try connection.markCurrentFormat()
        }
    }

    /// Finishes a migration from format 3: moves its trash rows into partitions in batches
    /// (see ``Format3Trash``), resuming where a killed open stopped. Another app opening the
    /// file meanwhile moves batches too; both return once nothing is left.
    private static func moveFormat3Trash(_ connection: SQLiteConnection, options: StoreOptions) throws {
        guard try Format3Trash.isPending(connection) else { return }
        let started = ContinuousClock.now
        let moved = try Format3Trash.moveAll(connection) { options.clock.nowMilliseconds() }
        options.logger.notice(
            "moved format 3's trash into partitions",
            metadata: [
                "path": "\(connection.path)", "rows": "\(moved.rows)", "batches": "\(moved.batches)",
                "duration": "\(ContinuousClock.now - started)",
            ])
    }

    /// Switches to WAL. A concurrent opener may hold the lock, and SQLite then either keeps the
    /// old mode or fails at once with `SQLITE_BUSY` (without its busy handler, to avoid a
    /// deadlock), so retry both until the busy timeout.
    private static func enableWAL(_ connection: SQLiteConnection, busyTimeout: Duration) throws {
        let deadline = ContinuousClock.now + busyTimeout
        while true {
            do {
                let mode = try connection.requestWAL()
                if mode?.lowercased() == "wal" { return }
            } catch let error as SQLiteError where error.isBusy {
                if ContinuousClock.now >= deadline { throw error }
            }
            if ContinuousClock.now >= deadline { throw CacheError.busy(path: connection.path) }
            Thread.sleep(forTimeInterval: 0.005)
        }
    }

    // MARK: Quarantine

    /// Copies what can be read of the damaged file at `path` into a fresh file, moves the
    /// damaged one aside (with its `-wal` and `-shm`) and puts the fresh one in its place.
    static func salvage(path: String, reason: String, options: StoreOptions) throws -> QuarantinedFile {
        let fresh = "\(path).salvage-\(options.clock.nowMilliseconds())"
        // Created here, not by SQLite: never through a symbolic link planted at the name.
        let descriptor = Foundation.open(fresh, O_CREAT | O_EXCL | O_NOFOLLOW | O_RDWR | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw CacheError.cannotOpen(
                path: path, reason: "cannot create \(fresh) to salvage into: \(describe(errno))")
        }
        Foundation.close(descriptor)
        let repaired = HeaderRepair.readableCopy(of: path)?.path
        defer { if let repaired { try? FileManager.default.removeItem(atPath: repaired) } }
        let salvaged: Int
        do {
            salvaged = try mapped(path) {
                let target = try SQLiteConnection(
                    path: fresh, readOnly: false, create: true, busyTimeout: options.busyTimeout)
                try target.useRollbackJournal()
                try migrate(target, path: fresh)
                // A damaged header or a foreign `-wal`: read the main file through a sound copy.
                let source = try SQLiteConnection(
                    path: repaired ?? path, readOnly: true, create: false, busyTimeout: options.busyTimeout)
                return try Salvage.copy(from: source, into: target)
            }
        } catch {
            // Nothing was moved yet: leave the damaged file where it is, and no half copy.
            try? FileManager.default.removeItem(atPath: fresh)
            throw error
        }
        var report = try quarantine(
            path: path, reason: reason, clock: options.clock, keeping: options.keptQuarantinedFiles)
        report.salvagedEntries = salvaged
        DamageMarker.clear(path)
        guard rename(fresh, path) == 0 else {
            throw CacheError.cannotOpen(path: path, reason: "the salvaged copy \(fresh) could not be moved into place")
        }
        return report
    }

    /// Moves the file at `path` aside as `<path>.corrupt-<ms>`, keeping the newest `keeping`
    /// such files (the older ones are deleted).
    private static func quarantine(path: String, reason: String, clock: any CacheClock, keeping: Int) throws
        -> QuarantinedFile
    {
        let stamp = clock.nowMilliseconds()
        let target = "\(path).corrupt-\(stamp)"
        let manager = FileManager.default
        defer { removeOldQuarantined(of: path, keeping: max(keeping, 1)) }
        do {
            try manager.moveItem(atPath: path, toPath: target)
        } catch {
            throw CacheError.cannotOpen(path: path, reason: "it is damaged and could not be moved aside: \(error)")
        }
        for suffix in ["-wal", "-shm"] where manager.fileExists(atPath: path + suffix) {
            try? manager.moveItem(atPath: path + suffix, toPath: target + suffix)
        }
        return QuarantinedFile(originalPath: path, movedTo: target, reason: reason)
    }

    /// Deletes the `<path>.corrupt-<ms>` files (and their `-wal` and `-shm`) beyond the
    /// newest `keeping`, by the time in their names.
    private static func removeOldQuarantined(of path: String, keeping: Int) {
        let folder = (path as NSString).deletingLastPathComponent
        let prefix = (path as NSString).lastPathComponent + ".corrupt-"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.isEmpty ? "." : folder)) ?? []
        let stamped = names.compactMap { name -> (name: String, stamp: Int64)? in
            guard name.hasPrefix(prefix), let stamp = Int64(name.dropFirst(prefix.count)) else { return nil }
            return (name, stamp)
        }
        for old in stamped.sorted(by: { $0.stamp > $1.stamp }).dropFirst(keeping) {
            let file = (folder as NSString).appendingPathComponent(old.name)
            for suffix in ["", "-wal", "-shm"] { unlink(file + suffix) }
        }
    }
}
