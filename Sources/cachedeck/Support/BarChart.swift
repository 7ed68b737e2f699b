/// Horizontal bars of block characters, in eighths of a cell.
enum BarChart {
    private static let eighths = ["", "▏", "▎", "▍", "▌", "▋", "▊", "▉"]

    /// A bar for `value` out of `maximum`, `width` cells at most; a non-zero value shows at
    /// least a sliver.
    static func bar(_ value: Int, of maximum: Int, width: Int) -> String {
        guard maximum > 0, value > 0 else { return "" }
        let units = max(1, Int((Double(value) / Double(maximum) * Double(width * 8)).rounded()))
        return String(repeating: "█", count: units / 8) + eighths[units % 8]
    }
}
