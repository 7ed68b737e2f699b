import TerminalUI
import CacheCore
import Foundation

/// Text the console hands outside itself: an entry's key or value, to the clipboard or to
/// `$PAGER`. The runtime carries it out (see ``ConsoleEffect/handOff(_:)``).
package struct ValueHandoff: Sendable, Hashable {
    /// Where the text goes.
    package enum Destination: Sendable, Hashable {
        /// The terminal's clipboard (OSC 52), else a private file.
        case clipboard
        /// `$PAGER` (`less` when unset), reading a private temporary file.
        case pager
    }

    /// Where the text goes.
    package var destination: Destination
    /// What it is, for the message: `the key of tiles/3/1/2`.
    package var subject: String
    /// The bytes handed over.
    package var bytes: Data
    /// How the bytes were made from the value, when not as stored (`as a hex dump: the value is
    /// not text`).
    package var note: String?

    /// A handoff of `bytes`.
    package init(_ destination: Destination, subject: String, bytes: Data, note: String? = nil) {
        self.destination = destination
        self.subject = subject
        self.bytes = bytes
        self.note = note
    }
}

/// Reads an entry's whole value (up to 16 MiB) for a ``ValueHandoff``: the bytes as stored when
/// they are text (pretty JSON for the pager, unless `hex`), else a hex dump.
package struct ValueRead: ConsoleRead {
    /// The entry's namespace.
    let namespace: String
    /// Its canonical key.
    let key: String
    /// Where the value goes.
    let destination: ValueHandoff.Destination
    /// Whether the Detail view shows a hex dump (the pager then shows one too).
    let hex: Bool

    package func run(on source: any ConsoleDataSource) throws -> ValueHandoff {
        guard let value = try source.wholeValue(namespace: namespace, key: key) else {
            throw ConsoleError("\(key) no longer exists; nothing was copied or shown.")
        }
        let subject = "the value of \(key) (\(Formatting.bytes(value.count)))"
        let bytes = [UInt8](value)
        if !hex, String(validating: bytes, as: UTF8.self) != nil {
            guard destination == .pager else { return ValueHandoff(destination, subject: subject, bytes: value) }
            // What a pager shows goes to the terminal: control characters as visible escapes.
            let text = JSONPrettyPrinter.prettyPrinted(bytes, limit: 16 << 20)?.text ?? String(decoding: value, as: UTF8.self)
            let safe = text.split(separator: "\n", omittingEmptySubsequences: false).map {
                TerminalText.sanitize(String($0))
            }
            return ValueHandoff(destination, subject: subject, bytes: Data((safe.joined(separator: "\n") + "\n").utf8))
        }
        let dump = ValueText.lines(HexDumpLine.lines(bytes)).map { $0 + "\n" }.joined()
        return ValueHandoff(
            destination, subject: subject, bytes: Data(dump.utf8),
            note: hex ? "as a hex dump" : "as a hex dump: the value is not text")
    }
}
