import CacheCore
import Foundation

/// Reads back what ``EntryExporter`` wrote: JSON Lines, one entry per line. Any bad line
/// fails the whole read with its line number, so an import takes all of a file or nothing.
package enum EntryImportReader {
    /// The longest line read (a 16 MiB value, the most an export writes, as base64 and more).
    package static let maxLineBytes = 32 << 20

    /// The entries of `data` for namespace `namespace` (`nil`: the one every line names; then
    /// lines must agree). With `namespace` given, lines import into it whatever they name.
    /// Blank lines are skipped. Throws a ``ConsoleError`` `line N: …` for the first bad line.
    package static func entries(of data: Data, namespace: String?) throws -> (namespace: String, entries: [ImportedEntry]) {
        var target = namespace
        var entries: [ImportedEntry] = []
        var lineOfKey: [String: Int] = [:]
        var number = 0
        for line in data.split(separator: 0x0A, omittingEmptySubsequences: false) {
            number += 1
            guard line.contains(where: { ![0x20, 0x09, 0x0D].contains($0) }) else { continue }
            func fail(_ reason: String) -> ConsoleError { ConsoleError("line \(number): \(reason); nothing was imported") }
            guard line.count <= maxLineBytes else {
                throw fail("longer than \(maxLineBytes >> 20) MiB")
            }
            let bytes = [UInt8](line)
            let fields: ExportedLine
            do {
                fields = try JSONDecoder().decode(ExportedLine.self, from: Data(bytes))
            } catch let error as DecodingError {
                throw fail(Self.reason(error))
            }
            let named = target ?? fields.namespace
            if target == nil { target = named } else if namespace == nil, fields.namespace != named {
                throw fail("namespace \"\(fields.namespace)\" differs from \"\(named)\" (import one namespace, or give --namespace)")
            }
            if let earlier = lineOfKey[fields.key] { throw fail("key \"\(fields.key)\" is also on line \(earlier)") }
            lineOfKey[fields.key] = number
            let value: Data
            switch (RawJSON.member("value", of: bytes), fields.valueBase64) {
            case (let raw?, nil): value = Data(raw)
            case (nil, let text?):
                guard let decoded = Data(base64Encoded: text) else { throw fail("\"valueBase64\" is not base64") }
                value = decoded
            case (nil, nil): throw fail("no \"value\" or \"valueBase64\"")
            case (_?, _?): throw fail("both \"value\" and \"valueBase64\"")
            }
            if fields.createdAt < 0 { throw fail("\"createdAt\" is negative") }
            if let staleUntil = fields.staleUntil {
                guard let expiresAt = fields.expiresAt else { throw fail("\"staleUntil\" without \"expiresAt\"") }
                if staleUntil < expiresAt { throw fail("\"staleUntil\" is before \"expiresAt\"") }
            }
            entries.append(
                ImportedEntry(
                    key: fields.key, value: value, tags: fields.tags ?? [], createdAt: fields.createdAt,
                    expiresAt: fields.expiresAt, staleUntil: fields.staleUntil, version: fields.version ?? ""))
        }
        guard let target else { throw ConsoleError("no entries to import (the input is empty)") }
        return (target, entries)
    }

    /// A decoding error in a few words: which field, and what is wrong with it.
    private static func reason(_ error: DecodingError) -> String {
        func field(_ path: [any CodingKey]) -> String { path.last.map { "\"\($0.stringValue)\"" } ?? "the line" }
        switch error {
        case .keyNotFound(let key, _): return "\"\(key.stringValue)\" is missing"
        case .typeMismatch(let type, let context): return "\(field(context.codingPath)) is not \(describe(type))"
        case .valueNotFound(let type, let context): return "\(field(context.codingPath)) is not \(describe(type))"
        case .dataCorrupted(let context):
            return context.codingPath.isEmpty ? "not a JSON object (or a number in it is out of range)" : "\(field(context.codingPath)) is not valid"
        @unknown default: return "not an exported entry"
        }
    }

    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is Int64.Type: "an integer (milliseconds since the epoch)"
        case is String.Type: "a string"
        case is [String].Type: "a list of strings"
        default: "of the right type"
        }
    }
}

/// The fields of one exported line that decode as they are (the value is read raw).
private struct ExportedLine: Decodable {
    let namespace: String
    let key: String
    let valueBase64: String?
    let tags: [String]?
    let createdAt: Int64
    let expiresAt: Int64?
    let staleUntil: Int64?
    let version: String?
}

/// The text of one member of a JSON object, as written (a value that is JSON is imported as
/// its bytes, not as a re-encoding of them).
enum RawJSON {
    /// The raw text of member `name` of `bytes`, a valid JSON object; `nil` when it has none.
    static func member(_ name: String, of bytes: [UInt8]) -> ArraySlice<UInt8>? {
        var index = 0
        func skipSpace() {
            while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
        }
        func skipString() {
            index += 1
            while index < bytes.count, bytes[index] != 0x22 { index += bytes[index] == 0x5C ? 2 : 1 }
            index += 1
        }
        func skipValue() {
            var depth = 0
            repeat {
                guard index < bytes.count else { return }
                switch bytes[index] {
                case 0x22: skipString()
                case 0x7B, 0x5B: depth += 1; index += 1
                case 0x7D, 0x5D: depth -= 1; index += 1
                case 0x2C where depth == 0: return
                default: index += 1
                }
            } while depth > 0 || (index < bytes.count && ![0x2C, 0x7D, 0x5D].contains(bytes[index]))
        }
        skipSpace()
        guard index < bytes.count, bytes[index] == 0x7B else { return nil }
        index += 1
        while index < bytes.count {
            skipSpace()
            guard index < bytes.count, bytes[index] == 0x22 else { return nil }
            let keyStart = index
            skipString()
            let key = try? JSONDecoder().decode(String.self, from: Data(bytes[keyStart..<min(index, bytes.count)]))
            skipSpace()
            index += 1  // the colon
            skipSpace()
            let start = index
            skipValue()
            var end = index
            while end > start, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[end - 1]) { end -= 1 }
            if key == name { return bytes[start..<end] }
            skipSpace()
            guard index < bytes.count, bytes[index] == 0x2C else { return nil }
            index += 1
        }
        return nil
    }
}
