import Foundation

/// A filter's regular expressions, run on keys with bounded work.
///
/// ICU backtracks, so a pattern such as `(a|a)+$` takes time exponential in the key's length.
/// Each key gets at most ``perKeyLimit`` and one request (a page, a count) at most
/// ``perRequestLimit`` in all; past either the request fails with an ``EntryFilterError``
/// that says so, instead of holding a reader (and the console's read queue) for minutes.
package struct KeyMatcher {
    /// Time one key may take to match every expression.
    static let perKeyLimit: Duration = .milliseconds(100)
    /// Time all the keys of one request may take.
    static let perRequestLimit: Duration = .seconds(2)

    let regexes: [NSRegularExpression]
    private let deadline: ContinuousClock.Instant

    package init(_ regexes: [NSRegularExpression]) {
        self.regexes = regexes
        deadline = .now + Self.perRequestLimit
    }

    package var isEmpty: Bool { regexes.isEmpty }

    /// Whether every expression matches somewhere in `key`.
    ///
    /// - Throws: ``EntryFilterError`` when a limit is reached.
    package func allMatch(_ key: String) throws(EntryFilterError) -> Bool {
        let start = ContinuousClock.now
        let keyDeadline = min(start + Self.perKeyLimit, deadline)
        for regex in regexes {
            var found = false
            var gaveUp = false
            // With `.reportProgress` ICU calls back while it works, so a runaway match stops.
            regex.enumerateMatches(in: key, options: [.reportProgress], range: NSRange(key.startIndex..., in: key)) {
                result, _, stop in
                if result != nil {
                    found = true
                    stop.pointee = true
                } else if ContinuousClock.now >= keyDeadline {
                    gaveUp = true
                    stop.pointee = true
                }
            }
            if gaveUp {
                throw ContinuousClock.now >= deadline
                    ? EntryFilterError(
                        "regular expressions took over \(Self.perRequestLimit) on this request; narrow the filter "
                            + "(a prefix or tag term limits the keys tested)")
                    : EntryFilterError(
                        "regex '\(regex.pattern)' gave up after \(Self.perKeyLimit) on one key; simplify it "
                            + "(nested repetition such as (a|a)+ backtracks exponentially)")
            }
            if !found { return false }
        }
        return true
    }
}
