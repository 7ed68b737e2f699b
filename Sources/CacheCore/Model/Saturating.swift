// A cache file is input: any number read from it may be at the limits of its type. Figures
// computed from such numbers saturate at the bounds instead of trapping. Package-wide (the
// console and the CLI format the same numbers), not part of the public API.

extension FixedWidthInteger {
    /// `self + other`, saturating at the bounds instead of overflowing.
    package func addingClamped(_ other: Self) -> Self {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? (other > 0 ? .max : .min) : sum
    }

    /// `self - other`, saturating at the bounds instead of overflowing.
    @usableFromInline package func subtractingClamped(_ other: Self) -> Self {
        let (difference, overflow) = subtractingReportingOverflow(other)
        return overflow ? (other > 0 ? .min : .max) : difference
    }

    /// `self * other`, saturating at the bounds instead of overflowing.
    package func multipliedClamped(by other: Self) -> Self {
        let (product, overflow) = multipliedReportingOverflow(by: other)
        return overflow ? ((self < 0) == (other < 0) ? .max : .min) : product
    }

    /// `value` rounded toward zero, saturating at the bounds; `0` for NaN.
    package init<Value: BinaryFloatingPoint>(saturating value: Value) {
        if value.isNaN {
            self = 0
        } else if value >= Value(Self.max) {
            self = .max
        } else if value <= Value(Self.min) {
            self = .min
        } else {
            self.init(value)
        }
    }
}

extension Sequence where Element: FixedWidthInteger {
    /// The sum, saturating at the bounds.
    package func clampedSum() -> Element { reduce(0) { $0.addingClamped($1) } }
}
