/// Why an ``Inspector`` call could not answer. Each case reads as one line.
public enum InspectorError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file has no namespace of this name.
    case noSuchNamespace(String)
    /// The cursor came from a page of another namespace or another order.
    case cursorMismatch
    /// A cursor token (``EntryCursor/token``) that does not decode.
    case invalidCursor
    /// Sorting by sort value in a file older than format 7, opened read-only (not migrated).
    case noSortValues

    /// A one-line explanation.
    public var description: String {
        switch self {
        case .noSuchNamespace(let name): "no namespace named '\(name)'"
        case .cursorMismatch: "the cursor belongs to another namespace or sort order; start from the first page"
        case .invalidCursor: "the cursor is not one a page of entries handed out; start from the first page"
        case .noSortValues: "this file predates sort values (format 7); an app must open it read-write once"
        }
    }
}
