/// Which characters graphs and bars are drawn with.
package enum GlyphSet: Hashable, Sendable {
    /// Block elements and braille patterns (needs a UTF-8 terminal and a font that has them).
    case unicode
    /// Plain ASCII, for terminals without Unicode.
    case ascii
}

/// Maps values onto a graph's vertical range.
enum GraphScale {
    /// `range`, or 0 through the largest finite value (the smallest too when negative);
    /// never an empty range.
    static func range(_ range: ClosedRange<Double>?, for values: [Double]) -> ClosedRange<Double> {
        if let range, range.upperBound > range.lowerBound { return range }
        let finite = values.filter(\.isFinite)
        let low = min(0, finite.min() ?? 0)
        let high = finite.max() ?? 1
        return high > low ? low...high : low...(low + 1)
    }

    /// Where `value` sits in `range`, from 0 to 1; `nil` for a value that is not finite.
    static func fraction(_ value: Double, in range: ClosedRange<Double>) -> Double? {
        guard value.isFinite else { return nil }
        return min(1, max(0, (value - range.lowerBound) / (range.upperBound - range.lowerBound)))
    }
}
