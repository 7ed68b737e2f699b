import TerminalUI
import CacheCore
import CacheCoreRedis
import Foundation

/// What to export: the entries of a namespace that a filter matches, or only some keys.
package struct ExportRequest: Sendable, Hashable {
    /// The namespace.
    package var namespace: String
    /// Filter text (``CacheCore/EntryFilter`` syntax; empty: every entry).
    package var filter: String
    /// Only these canonical keys (`nil`: every entry the filter matches).
    package var keys: [String]?
    /// The file written (`~/…` is under `$HOME`).
    package var path: String
    /// Whether an existing file at ``path`` is replaced (otherwise the export refuses).
    package var replacing: Bool
    /// The file's permission bits: those of the cache file (the data source sets them), so
    /// an export is no more readable than what it was read from.
    package var permissions: mode_t = 0o600

    /// A request with these parts.
    package init(namespace: String, filter: String = "", keys: [String]? = nil, path: String, replacing: Bool = false) {
        self.namespace = namespace
        self.filter = filter
        self.keys = keys
        self.path = Self.expandingHome(path)
        self.replacing = replacing
    }

    /// Takes the permission bits of the file at `path` (the cache file), if it can be read.
    package mutating func takePermissions(ofFileAt path: String) {
        var status = stat()
        if stat(path, &status) == 0 { permissions = status.st_mode & 0o777 }
    }

    /// `path` with a leading `~` (alone or before `/`) replaced by `home` (the `$HOME` of the
    /// environment, as a shell does; unchanged when there is none).
    package static func expandingHome(
        _ path: String, home: String? = ProcessInfo.processInfo.environment["HOME"]
    ) -> String {
        guard let home, !home.isEmpty, path == "~" || path.hasPrefix("~/") else { return path }
        return home + path.dropFirst()
    }
}

/// Writes entries as JSON Lines, one object per entry, from an ``ExportSource`` (a file's
/// ``CacheCore/Inspector`` or a ``CacheCore/RedisStoreInspector``):
///
/// `{"namespace": "tiles", "key": "3/1/2", "value": …, "tags": [], "createdAt": …, "expiresAt": …,
/// "staleUntil": …, "version": ""}`
///
/// `key` is the canonical key (what `ls` prints and `show` takes); `value` is the value itself
/// when it is JSON, else `valueBase64` holds its bytes. Times are milliseconds since the
/// epoch (`null`: never).
package enum EntryExporter {
    /// Rows read per page.
    private static let pageSize = 500

    /// How a value is read whole: a hex dump of up to 16 MiB.
    static let hexDumpOptions = EntryDetailOptions(format: .hexDump, maxBytes: 16 << 20)

    /// Writes the entries `request` selects to `write`, a line at a time; returns how many.
    package static func export<Source: ExportSource>(
        _ request: ExportRequest, from source: Source, to write: (Data) throws -> Void
    ) throws -> Int {
        let filter = try EntryFilter(parsing: request.filter)
        var count = 0
        if let keys = request.keys {
            for key in keys {
                guard let row = try source.exportRow(namespace: request.namespace, key: key) else { continue }
                try write(line(row, value: try value(of: row, from: source)))
                count += 1
            }
            return count
        }
        var cursor: Source.Cursor? = nil
        repeat {
            let page = try source.exportPage(
                namespace: request.namespace, filter: filter, limit: pageSize, after: cursor)
            for row in page.rows {
                try write(line(row, value: try value(of: row, from: source)))
                count += 1
            }
            cursor = page.next
        } while cursor != nil
        return count
    }

    /// Writes to the file at `request.path`, created with `request.permissions`; an existing
    /// file is replaced only when the request says so.
    package static func export(_ request: ExportRequest, from source: some ExportSource) throws -> Int {
        let flags = O_WRONLY | O_CREAT | O_CLOEXEC | (request.replacing ? O_TRUNC : O_EXCL)
        let descriptor = open(request.path, flags, request.permissions)
        guard descriptor >= 0 else {
            let code = errno
            if code == EEXIST { throw ConsoleError("\(request.path) exists; nothing was written (replace it with :export!)") }
            throw ConsoleError("cannot create \(request.path): \(String(cString: strerror(code)))")
        }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        defer { try? handle.close() }
        // The mode asked for exactly, whatever the umask or the replaced file's mode.
        fchmod(descriptor, request.permissions)
        return try export(request, from: source) { try handle.write(contentsOf: $0) }
    }

    /// The bytes of `row`'s value (empty when it is gone), from its hex dump.
    package static func value(of row: EntryRow, from source: some ExportSource) throws -> Data {
        guard case .hexDump(let lines, _)? = try source.exportHexDump(of: row) else { return Data() }
        var bytes = Data()
        for line in lines {
            for pair in line.hex.split(separator: " ") {
                if let byte = UInt8(pair, radix: 16) { bytes.append(byte) }
            }
        }
        return bytes
    }

    /// One line for `row` with value bytes `value`.
    static func line(_ row: EntryRow, value: Data) throws -> Data {
        func json(_ string: String) throws -> String {
            let encoder = JSONEncoder()
            encoder.outputFormatting = .withoutEscapingSlashes
            return String(decoding: try encoder.encode(string), as: UTF8.self)
        }
        func time(_ milliseconds: Int64?) -> String { milliseconds.map(String.init) ?? "null" }
        var fields = ["\"namespace\":\(try json(row.namespace))", "\"key\":\(try json(row.key))"]
        if let text = jsonText(value) {
            fields.append("\"value\":\(text)")
        } else {
            fields.append("\"valueBase64\":\"\(value.base64EncodedString())\"")
        }
        let tags = try row.tags.map(json).joined(separator: ",")
        fields += [
            "\"tags\":[\(tags)]", "\"createdAt\":\(row.createdAt)", "\"expiresAt\":\(time(row.expiresAt))",
            "\"staleUntil\":\(time(row.staleUntil))", "\"version\":\(try json(row.version))",
        ]
        return Data(("{" + fields.joined(separator: ",") + "}\n").utf8)
    }

    /// `value` as one line of JSON text when it is JSON (`nil` otherwise).
    private static func jsonText(_ value: Data) -> String? {
        guard !value.isEmpty, let object = try? JSONSerialization.jsonObject(with: value, options: .fragmentsAllowed)
        else { return nil }
        if !value.contains(0x0A) && !value.contains(0x0D), let text = String(data: value, encoding: .utf8) {
            return text
        }
        return (try? JSONSerialization.data(withJSONObject: object, options: [.fragmentsAllowed, .sortedKeys]))
            .map { String(decoding: $0, as: UTF8.self) }
    }
}
