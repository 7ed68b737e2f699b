import CNCurses
import TerminalUI

/// Turns a cell's style into curses attributes and a colour pair, allocating pairs on demand
/// (`init_extended_pair`, never `init_color`: the user's palette is left alone) and caching
/// both the resolved styles and the pairs.
struct StyleResolver {
    /// What the terminal can show.
    let depth: ColorDepth
    /// Whether -1 (the terminal's own colour) is usable, after `use_default_colors`.
    let defaultColorsAvailable: Bool
    /// The theme styles are resolved with.
    var theme: Theme {
        didSet { resolved = [:] }
    }
    private var resolved: [CellStyle: (attributes: attr_t, pair: Int32)] = [:]
    private var pairs: [TerminalColorPair: Int32] = [:]
    private let pairLimit: Int32

    init(depth: ColorDepth, defaultColorsAvailable: Bool, theme: Theme) {
        self.depth = depth
        self.defaultColorsAvailable = defaultColorsAvailable
        self.theme = theme
        pairLimit = depth == .monochrome ? 0 : cn_color_pairs()
    }

    /// The attributes and colour pair for `style`.
    mutating func resolve(_ style: CellStyle) -> (attributes: attr_t, pair: Int32) {
        if let known = resolved[style] { return known }
        let roleStyle = theme.style(for: style)
        var attributes = cn_a_normal()
        if roleStyle.attributes.contains(.bold) { attributes |= cn_a_bold() }
        if roleStyle.attributes.contains(.dim) { attributes |= cn_a_dim() }
        if roleStyle.attributes.contains(.underline) { attributes |= cn_a_underline() }
        if roleStyle.attributes.contains(.reverse) { attributes |= cn_a_reverse() }
        let colors = TerminalColorPair(
            foreground: depth.foregroundColor(for: roleStyle.foreground, onDarkBackground: theme.isDark),
            background: depth.terminalColor(for: roleStyle.background))
        let result = (attributes, pair(for: colors))
        resolved[style] = result
        return result
    }

    /// The pair number for `colors`: 0 (the terminal's default colours) when both are the
    /// default or the pairs have run out.
    private mutating func pair(for colors: TerminalColorPair) -> Int32 {
        guard colors != TerminalColorPair(foreground: .terminalDefault, background: .terminalDefault) else { return 0 }
        if let known = pairs[colors] { return known }
        let number = Int32(pairs.count + 1)
        guard number < pairLimit,
            init_extended_pair(
                number, curses(colors.foreground, fallback: COLOR_WHITE),
                curses(colors.background, fallback: COLOR_BLACK)) == OK
        else { return 0 }
        pairs[colors] = number
        return number
    }

    /// The curses colour number: -1 for the terminal's default when allowed, else `fallback`.
    private func curses(_ color: TerminalColor, fallback: Int32) -> Int32 {
        switch color {
        case .terminalDefault: return defaultColorsAvailable ? -1 : fallback
        case .indexed(let index): return Int32(index)
        }
    }
}

/// A foreground and background as the terminal draws them.
private struct TerminalColorPair: Hashable {
    let foreground: TerminalColor
    let background: TerminalColor
}
