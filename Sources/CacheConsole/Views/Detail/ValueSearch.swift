/// A search in the value lines a Detail view shows: every place the text occurs, and which one
/// is current. Like `less`, lowercase text matches either case and text with a capital matches
/// exactly. A line the display wraps is searched whole, so a match the wrap cuts in two is
/// found, and marked on both rows.
package struct ValueSearch: Sendable, Hashable {
    /// One place the text occurs: a line and the characters it covers there.
    package struct Match: Sendable, Hashable {
        /// The line (0: the first value line).
        package var line: Int
        /// The first character of the match in that line.
        package var start: Int
        /// How many characters it covers (on that line).
        package var length: Int
        /// Where the match goes on, on the rows after, when the wrap cut it.
        package var continuation: [Match] = []
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

    /// Finds the matches in `lines`, where `continuations[i]` is the indent line `i` starts
    /// with when it continues line `i - 1` (a wrap; `nil` or absent: it does not); the current
    /// one is the first at or after line `from`.
    mutating func run(on lines: [String], continuations: [Int?] = [], from line: Int) {
        matches = []
        let needle = Array(ignoresCase ? text.lowercased() : text)
        guard !needle.isEmpty else {
            current = nil
            return
        }
        var index = 0
        while index < lines.count {
            // One line of the value: its first row and the rows its wrap continues on, each
            // character with the row and column it is drawn at.
            var shown: [Character] = []
            var places: [(line: Int, column: Int)] = []
            var row = index
            repeat {
                let skip = row == index ? 0 : (continuations[row] ?? 0)
                for (column, character) in Array(lines[row]).enumerated() where column >= skip {
                    shown.append(character)
                    places.append((row, column))
                }
                row += 1
            } while row < lines.count && continuations.indices.contains(row) && continuations[row] != nil
            index = row
            let lowered = Array(String(shown).lowercased())
            // Lowercasing may change the length (rare, e.g. `İ`): then match the text as it is.
            let haystack = ignoresCase && lowered.count == shown.count ? lowered : shown
            var start = 0
            while start + needle.count <= haystack.count {
                guard haystack[start..<start + needle.count].elementsEqual(needle) else {
                    start += 1
                    continue
                }
                matches.append(Self.match(places[start..<start + needle.count]))
                start += needle.count
            }
        }
        current = matches.isEmpty ? nil : (matches.firstIndex { $0.line >= line } ?? 0)
    }

    /// The match over characters drawn at `places`: its first row's part, then the others.
    private static func match(_ places: ArraySlice<(line: Int, column: Int)>) -> Match {
        var pieces: [Match] = []
        for place in places {
            if let last = pieces.last, last.line == place.line {
                pieces[pieces.count - 1].length += 1
            } else {
                pieces.append(Match(line: place.line, start: place.column, length: 1))
            }
        }
        var first = pieces.removeFirst()
        first.continuation = pieces
        return first
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
