import Foundation

/// A cache file SQLite cannot read as one while its tables are intact: its header (the first
/// 100 bytes of page 1, read before anything else) is damaged, or a `-wal` beside it holds
/// another database's pages. SQLite refuses such a file, or reads it as someone else's; a
/// copy of the main file alone, with a sound header, reads as the cache it is, so
/// ``StoreFile/salvage(path:reason:options:)`` can copy its entries.
enum HeaderRepair {
    private static let magic = Array("SQLite format 3\0".utf8)

    /// A readable copy of the main file at `path` (next to it, removed by the caller) and
    /// what was wrong, when `path` does not read as a cache but the copy, its header and
    /// page 1's list of tables made sound, holds CacheDeck's tables; `nil` otherwise (a sound
    /// cache, someone else's database, a truncated file, or damage past page 1).
    static func readableCopy(of path: String) -> (path: String, reason: String)? {
        guard let header = FileHeader.read(path), schemaText(in: path) else { return nil }
        let isSound = isSound(header.bytes)
        var wal = stat()
        let hasWAL = stat(path + "-wal", &wal) == 0 && wal.st_size > 0
        // A sound header is only read past when SQLite finds the file damaged, or reads a
        // `-wal` that is another database's instead (never for a busy or unreadable file).
        let reading = reading(path)
        guard !isSound || reading == .damaged || (hasWAL && reading == .otherTables) else { return nil }
        let copy = "\(path).readable-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let manager = FileManager.default
        guard (try? manager.copyItem(atPath: path, toPath: copy)) != nil else { return nil }
        // A page count past the end is a truncation unless every page the tables use is there.
        let countPastEnd = header.pageCount.map { $0 * (header.pageSize ?? 0) > header.fileSize } ?? false
        let reason =
            !isSound || countPastEnd
            ? "its header (page 1) is damaged; its tables are readable"
            : reading == .otherTables
                ? "its -wal holds another database's pages; the main file's tables are readable"
                : "its first page (the list of its tables) is damaged; its tables are readable"
        for pageSize in pageSizes(header.bytes) where header.fileSize % Int64(pageSize) == 0 {
            guard patch(copy, pageSize: pageSize, fileSize: header.fileSize, original: header.bytes) else { break }
            if holdsCache(copy), !countPastEnd || isIntact(copy) { return (copy, reason) }
            if rebuildSchemaPage(copy, pageSize: pageSize, pageCount: Int(header.fileSize) / pageSize) {
                return (copy, reason)
            }
        }
        try? manager.removeItem(atPath: copy)
        return nil
    }

    /// Tries each of ``SchemaPageRepair``'s images of page 1 in `copy`; keeps the first with
    /// which CacheDeck's tables read and SQLite's quick check passes.
    private static func rebuildSchemaPage(_ copy: String, pageSize: Int, pageCount: Int) -> Bool {
        guard let file = FileHandle(forUpdatingAtPath: copy) else { return false }
        defer { try? file.close() }
        func page(_ number: Int) -> [UInt8]? {
            guard (try? file.seek(toOffset: UInt64((number - 1) * pageSize))) != nil,
                let data = try? file.read(upToCount: pageSize), data.count == pageSize
            else { return nil }
            return [UInt8](data)
        }
        guard let first = page(1),
            SchemaPageRepair.looksDamaged(first, usable: pageSize, pageCount: pageCount) || !holdsCache(copy)
        else { return false }
        for image in SchemaPageRepair.candidates(first, usable: pageSize, pageCount: pageCount, page: page) {
            guard (try? file.seek(toOffset: 100)) != nil,
                (try? file.write(contentsOf: Data(image[100...]))) != nil
            else { return false }
            try? file.synchronize()
            if holdsCache(copy), isIntact(copy) { return true }
        }
        return false
    }

    /// Whether the header reads as one a CacheDeck cache has: SQLite's magic, a valid page
    /// size, the fixed fields, schema format 1–4, UTF-8, a format version of 1 or more (a
    /// newer one than this build reads is refused as such) and CacheDeck's application id. (A page count past the end is judged elsewhere: it is a
    /// truncation, or a checkpoint under way.)
    static func isSound(_ bytes: [UInt8]) -> Bool {
        guard bytes.count == 100, bytes.prefix(16).elementsEqual(magic) else { return false }
        let pageSize = Int(bytes[16]) << 8 | Int(bytes[17])
        let size = pageSize == 1 ? 65536 : pageSize
        guard size >= 512, size.nonzeroBitCount == 1 else { return false }
        return (1...2).contains(bytes[18]) && (1...2).contains(bytes[19]) && bytes[20] == 0
            && bytes[21] == 64 && bytes[22] == 32 && bytes[23] == 32
            && (1...4).contains(integer(bytes, at: 44)) && (1...3).contains(integer(bytes, at: 56))
            && Int32(bitPattern: integer(bytes, at: 60)) >= 1
            && Int64(integer(bytes, at: 68)) == Schema.applicationID
    }

    /// Whether the start of the file holds CacheDeck's schema text (page 1 keeps the
    /// `CREATE TABLE` statements): worth a repaired copy, unlike any file that failed to open.
    private static func schemaText(in path: String) -> Bool {
        guard let file = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? file.close() }
        let start = (try? file.read(upToCount: 1 << 18)) ?? Data()
        return ["CREATE TABLE namespaces", "CREATE TABLE entries"].allSatisfy { start.range(of: Data($0.utf8)) != nil }
    }

    /// The page sizes to try: the header's when valid, then CacheDeck's (SQLite's default) and
    /// the others.
    private static func pageSizes(_ bytes: [UInt8]) -> [Int] {
        let recorded = bytes.count > 17 ? Int(bytes[16]) << 8 | Int(bytes[17]) : 0
        let valid = recorded >= 512 && recorded.nonzeroBitCount == 1 ? [recorded] : []
        return valid + [4096, 1024, 2048, 8192, 16384, 32768, 65536, 512].filter { !valid.contains($0) }
    }

    /// Writes a sound header into `copy`, keeping what was sound in `original`.
    private static func patch(_ copy: String, pageSize: Int, fileSize: Int64, original: [UInt8]) -> Bool {
        var bytes = original + [UInt8](repeating: 0, count: max(0, 100 - original.count))
        bytes.replaceSubrange(0..<16, with: magic)
        bytes[16] = UInt8((pageSize == 65536 ? 1 : pageSize) >> 8)
        bytes[17] = UInt8((pageSize == 65536 ? 1 : pageSize) & 0xFF)
        // Rollback journal: the copy is read on its own, without a `-wal`.
        (bytes[18], bytes[19], bytes[20], bytes[21], bytes[22], bytes[23]) = (1, 1, 0, 64, 32, 32)
        store(UInt32(fileSize / Int64(pageSize)), in: &bytes, at: 28)
        store(integer(bytes, at: 24), in: &bytes, at: 92)
        if !(1...4).contains(integer(bytes, at: 44)) { store(4, in: &bytes, at: 44) }
        store(1, in: &bytes, at: 56)
        if Int32(bitPattern: integer(bytes, at: 60)) < 1 {
            store(UInt32(Schema.currentVersion), in: &bytes, at: 60)
        }
        store(UInt32(Schema.applicationID), in: &bytes, at: 68)
        guard let file = FileHandle(forUpdatingAtPath: copy) else { return false }
        defer { try? file.close() }
        return (try? file.write(contentsOf: Data(bytes))) != nil
    }

    /// Whether `file` (with its `-wal`, if any) opens and holds CacheDeck's tables.
    private static func holdsCache(_ file: String) -> Bool { reading(file) == .cache }

    private enum Reading { case cache, otherTables, damaged, failed }

    /// How SQLite reads `file`: CacheDeck's tables, other tables, damage (corrupt or not a
    /// database), or another failure (busy, unreadable).
    private static func reading(_ file: String) -> Reading {
        do {
            let connection = try SQLiteConnection(
                path: file, readOnly: true, create: false, busyTimeout: .milliseconds(100))
            let tables = Set(try connection.tableNames())
            return tables.isSuperset(of: ["namespaces", "entries", "entry_tags"]) ? .cache : .otherTables
        } catch let error as SQLiteError where error.isCorrupt || error.isNotADatabase {
            return .damaged
        } catch {
            return .failed
        }
    }

    /// Whether SQLite's quick check of `file` passes: every page its tables use is there.
    private static func isIntact(_ file: String) -> Bool {
        guard
            let connection = try? SQLiteConnection(
                path: file, readOnly: true, create: false, busyTimeout: .milliseconds(100)),
            let problems = try? connection.sqliteProblems(.quick)
        else { return false }
        return problems.isEmpty
    }

    private static func integer(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        bytes[offset..<offset + 4].reduce(0) { $0 << 8 | UInt32($1) }
    }

    private static func store(_ value: UInt32, in bytes: inout [UInt8], at offset: Int) {
        for index in 0..<4 { bytes[offset + index] = UInt8(truncatingIfNeeded: value >> (24 - 8 * index)) }
    }
}
