import ArgumentParser
import CacheConsole
import TerminalUI
import CacheCore
import CacheCoreRedis
import ForeignCaches

/// `cachedeck ls FILE|URL NAMESPACE [--sort …] [--reverse] [--filter …] [--limit N] [--after CURSOR]`
struct ListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ls",
        abstract: "List a namespace's entries, a page at a time.",
        discussion: """
            Orders, named as the console's columns: key and expires ascending (soonest expiry first); \
            size and hits descending (largest, hottest first); age and accessed youngest and most \
            recent first; value (the app's sort value) highest first; --reverse flips them (created and \
            access are older names of age and accessed). Every order is exact: key and expires walk an \
            index; size ranks the whole namespace through the expiry index; age, accessed and hits rank \
            a scan of the namespace's rows.

            Filter terms, all of which must hold: text (key contains), prefix:P, regex:R, tag:T, \
            ttl<60s, age>1d, size>=4KiB, hits=0, expired, never. Example: --filter "size>1KB hits=0".

            A page ends with the command for the next one (--after CURSOR, with the same order and \
            filter). Keys are shown with control characters escaped; use show for one entry in full.

            On a RedisStore (a redis:// or redis+cluster:// URL) entries come in the server's SCAN \
            order (Redis cannot sort without reading every key: --sort and --reverse are refused), hits \
            and last access are not recorded (–, and hits filters are refused), and a page may hold \
            fewer entries than --limit when a filter skips many (it says so; the next page goes on).
            """)

    /// The orders `--sort` accepts: the console's column names (and the older `created` and
    /// `access`).
    enum Order: String, ExpressibleByArgument, CaseIterable {
        case key, size, age, expires, hits, accessed, value

        init?(argument: String) {
            switch argument {
            case "created": self = .age
            case "access": self = .accessed
            default: self.init(rawValue: argument)
            }
        }

        var field: EntrySortField {
            switch self {
            case .value: .sortValue
            case .key: .key
            case .size: .size
            case .age: .created
            case .expires: .expires
            case .accessed: .lastAccess
            case .hits: .hits
            }
        }

        /// Largest, newest or hottest first, except for keys and expiries.
        var isDescendingByDefault: Bool { self != .key && self != .expires }
    }

    @OptionGroup var store: StoreArguments
    @Argument(help: "The namespace to list.") var namespace: String
    @Option(name: .shortAndLong, help: "The order (see above).") var sort = Order.key
    @Flag(name: .shortAndLong, help: "Reverse the order.") var reverse = false
    @Option(name: .shortAndLong, help: "Only entries matching every term, e.g. \"size>1KB hits=0 user_\".")
    var filter = ""
    @Option(name: .shortAndLong, help: "Entries per page (1–10,000).") var limit = 50
    @Option(help: "Continue after this cursor (printed at the end of the previous page).") var after: String?
    @OptionGroup var redis: RedisPrefixArguments
    @OptionGroup var output: OutputArguments

    func validate() throws {
        guard (1...10_000).contains(limit) else { throw ValidationError("--limit must be between 1 and 10,000") }
        do {
            _ = try EntryFilter(parsing: filter)
        } catch {
            throw ValidationError("--filter: \(error)")
        }
        if let after, (try? EntryCursor(token: after)) == nil, (try? ForeignCursor(token: after)) == nil,
            (try? RedisEntryCursor(token: after)) == nil
        {
            throw ValidationError("--after: \(InspectorError.invalidCursor)")
        }
    }

    func run() throws {
        let sort = EntrySort(sort.field, descending: sort.isDescendingByDefault != reverse)
        if let foreign = ForeignReads.recognise(store.file, json: output.json) {
            let query = ForeignQuery(
                namespace: namespace, sort: sort, filter: try EntryFilter(parsing: filter), limit: limit,
                after: try after.map(ForeignCursor.init(token:)))
            return try foreign.list(query) { next in nextPage(after: next) }
        }
        if let inspector = try redis.inspector(for: store.file) { return try list(on: inspector) }
        let query = EntryQuery(
            namespace: namespace, sort: sort, filter: try EntryFilter(parsing: filter), limit: limit, after: try after.map(EntryCursor.init(token:)))
        let page = try store.openForReading().inspector.entries(query)
        if output.json { return try JSONOutput.print(EntryListing(page)) }
        print(Self.table(page.rows, now: page.now, readsRecorded: true))
        for note in notes(page) { print(note) }
    }

    /// A page of a RedisStore's namespace, in `SCAN` order.
    private func list(on inspector: RedisStoreInspector) throws {
        if sort != .key || reverse {
            throw Failure("a RedisStore lists entries in SCAN order: --sort and --reverse are for cache files")
        }
        let page = try inspector.entries(
            RedisEntryQuery(
                namespace: namespace, filter: try EntryFilter(parsing: filter), limit: limit,
                after: try after.map(RedisEntryCursor.init(token:))))
        if output.json { return try JSONOutput.print(EntryListing(page, filter: filter)) }
        print(Self.table(page.rows, now: page.now, readsRecorded: false))
        print("In SCAN order; Redis records no reads (hits, accessed: –).")
        if page.reachedScanLimit {
            print("Stopped after examining \(Formatting.count(page.examinedKeys)) keys; the next page goes on.")
        }
        if let next = page.next { print("Next page: " + nextPage(after: next.token)) }
    }

    /// The page's rows as a table; without `readsRecorded` (Redis) hits and last access are `–`.
    private static func table(_ rows: [EntryRow], now: Int64, readsRecorded: Bool) -> String {
        Table(
            headers: ["key", "size", "age", "expires", "hits", "accessed", "tags"],
            rows: rows.map { row in
                [
                    TerminalText.truncate(row.key, toWidth: 48), Formatting.bytes(row.size),
                    Figures.span(max(0, now.subtractingClamped(row.createdAt))), Figures.expiry(row.expiresAt, now: now),
                    readsRecorded ? Formatting.count(row.hits) : Table.none,
                    readsRecorded ? row.lastAccessAt.map { Figures.relative($0, now: now) } ?? "never" : Table.none,
                    TerminalText.truncate(row.tags.joined(separator: ","), toWidth: 32),
                ]
            }, textColumns: [0, 6]
        ).rendered
    }

    /// What the page covered and how to get the next one.
    private func notes(_ page: EntryPage) -> [String] {
        var notes: [String] = []
        if page.reachedScanLimit {
            notes.append("Stopped after examining \(Formatting.count(page.examinedRows)) rows; the next page goes on.")
        }
        if let next = page.next { notes.append("Next page: " + nextPage(after: next.token)) }
        return notes
    }

    /// The command for the page after `token`, with the same order and filter.
    private func nextPage(after token: String) -> String {
        var words = ["cachedeck", "ls", store.file, namespace, "--sort", sort.rawValue]
        if reverse { words.append("--reverse") }
        if !filter.isEmpty { words += ["--filter", filter] }
        if limit != 50 { words += ["--limit", "\(limit)"] }
        words += ["--after", token]
        return words.map(Shell.quoted).joined(separator: " ")
    }
}

/// `ls --json`: a page of entries with its cursor as a token (absent on the last page).
struct EntryListing: Encodable {
    let namespace: String
    let sort: EntrySort
    let filter: String
    let now: Int64
    let rows: [EntryRow]
    let next: String?
    let examinedRows: Int
    let reachedScanLimit: Bool

    init(_ page: EntryPage) {
        namespace = page.namespace
        sort = page.sort
        filter = page.filter
        now = page.now
        rows = page.rows
        next = page.next?.token
        examinedRows = page.examinedRows
        reachedScanLimit = page.reachedScanLimit
    }

    /// A RedisStore's page: in `SCAN` order (`sort` says key, ascending), `examinedRows` the
    /// keys read.
    init(_ page: RedisEntryPage, filter: String) {
        namespace = page.namespace
        sort = EntrySort(.key, descending: false)
        self.filter = filter
        now = page.now
        rows = page.rows
        next = page.next?.token
        examinedRows = page.examinedKeys
        reachedScanLimit = page.reachedScanLimit
    }
}
