import CacheCore
import Foundation

/// Where a page ends: the sort value and row id of its last row, as an opaque token.
package struct ForeignCursor: Sendable, Hashable {
    var sortValue: SQLiteValue
    var row: Int64

    /// The cursor as text (`f1.` + base64url of a tagged value and the row id).
    package var token: String {
        var bytes = Data()
        switch sortValue {
        case .null: bytes.append(0)
        case .integer(let value): bytes.append(1); bytes.append(contentsOf: Array("\(value)".utf8))
        case .real(let value): bytes.append(2); bytes.append(contentsOf: Array("\(value.bitPattern)".utf8))
        case .text(let value): bytes.append(3); bytes.append(contentsOf: Array(value.utf8))
        case .blob(let value): bytes.append(4); bytes.append(value)
        }
        let body = bytes.base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        return "f1.\(row).\(body)"
    }

    init(sortValue: SQLiteValue, row: Int64) {
        self.sortValue = sortValue
        self.row = row
    }

    /// Reads a token back; a malformed one is an error, not a different page.
    package init(token: String) throws {
        let parts = token.split(separator: ".", maxSplits: 2, omittingEmptySubsequences: false)
        let invalid = ForeignCacheError("the cursor is not one this cache handed out")
        guard parts.count == 3, parts[0] == "f1", let row = Int64(parts[1]),
            let bytes = Data(
                base64Encoded: String(parts[2]).replacingOccurrences(of: "-", with: "+")
                    .replacingOccurrences(of: "_", with: "/")),
            let tag = bytes.first
        else { throw invalid }
        let rest = bytes.dropFirst()
        let text = String(decoding: rest, as: UTF8.self)
        switch tag {
        case 0: sortValue = .null
        case 1: guard let value = Int64(text) else { throw invalid }; sortValue = .integer(value)
        case 2: guard let bits = UInt64(text) else { throw invalid }; sortValue = .real(Double(bitPattern: bits))
        case 3: sortValue = .text(text)
        case 4: sortValue = .blob(Data(rest))
        default: throw invalid
        }
        self.row = row
    }
}
