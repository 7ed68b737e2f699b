/// A search in the value lines a Detail view shows: every place the text occurs, and which one
/// is current. Like `less`, lowercase text matches either case and text with a capital matches
/// exactly. Matches are found within a shown line (a match a wrap cuts in two is not found).
package struct ValueSearch: Sendable, Hashable {
    /// One place the text occurs: a line and the characters it covers there.
    package struct Match: Sendable, Hashable {
        /// The line (0: the first value line).
        package var line: Int
        /// The first character of the match in that line.
        package var start: Int
        /// How many characters it covers.
        package var length: Int
    }

    /// The text searched for.
    package let text: String
    /// Every match, in reading order.
    package private(set) var matches: [Match] = []
    /// The match the view shows (an index into ``matches``), if any.
    package private(set) var current: Int?

    /// A search for `text` (not yet run on any lines).
    init(_ text: String) {
        self.text = text
    }

    /// Whether the search matches regardless of case (the text has no capital letter).
    private var ignoresCase: Bool { !text.contains { $0.isUppercase } }

    /// Finds the matches in `lines`; the current one is the first at or after line `from`.
    mutating func run(on lines: [String], from line: Int) {
        matches = []
        let needle = Array(ignoresCase ? text.lowercased() : text)
        guard !needle.isEmpty else {
            current = nil
            return
        }
        for (index, shown) in lines.enumerated() {
            let characters = Array(ignoresCase ? shown.lowercased() : shown)
            // Lowercasing may change a line's length (rare, e.g. `İ`): then match it as it is.
            let haystack = characters.count == shown.count ? characters : Array(shown)
            var start = 0
            while start + needle.count <= haystack.count {
                if haystack[start..<start + needle.count].elementsEqual(needle) {
                    matches.append(Match(line: index, start: start, length: needle.count))
                    start += needle.count
                } else {
                    start += 1
                }
            }
        }
        current = matches.isEmpty ? nil : (matches.firstIndex { $0.line >= line } ?? 0)
    }

    /// Makes the next (`forward`) or previous match current, wrapping around at either end.
    mutating func step(forward: Bool) {
        guard !matches.isEmpty else { return }
        let index = current ?? (forward ? -1 : 0)
        current = (index + (forward ? 1 : -1) + matches.count) % matches.count
    }

    /// The current match.
    var currentMatch: Match? { current.map { matches[$0] } }

    /// Where the search stands, for the value box's title: `3 of 17 for "id"`, or none.
    var summary: String {
        guard let current else { return "no match for \"\(text)\"" }
        return "match \(Formatting.count(current + 1)) of \(Formatting.count(matches.count)) for \"\(text)\""
    }
}
