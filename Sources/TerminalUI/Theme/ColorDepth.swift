/// How many colours a terminal shows, and how theme colours map onto them. Themes are never
/// allowed to redefine the terminal's palette, so exact colours are matched to the nearest
/// colour the terminal already has.
package enum ColorDepth: Hashable, Sendable, CaseIterable {
    /// No colours: attributes only (also chosen when `NO_COLOR` is set).
    case monochrome
    /// The 8 basic ANSI colours.
    case ansi8
    /// The 16 ANSI colours.
    case ansi16
    /// The xterm 256-colour palette.
    case xterm256

    /// The depth for a terminal reporting `colorCount` colours (terminfo `colors`).
    package init(colorCount: Int) {
        switch colorCount {
        case 256...: self = .xterm256
        case 16..<256: self = .ansi16
        case 8..<16: self = .ansi8
        default: self = .monochrome
        }
    }

    /// `color` as this terminal can draw it: ANSI colours keep their number (folded onto
    /// 0–7 with 8 colours); exact colours become the nearest of the 6×6×6 cube and grey ramp
    /// (16–255) with 256 colours, whose values are standard; with 16 or 8 a grey becomes the
    /// nearest ANSI grey and any other colour the ANSI colour of the nearest hue (so a green
    /// and an amber never both land on yellow), with 16 its normal or bright shade, whichever
    /// is nearer; everything is the default in monochrome.
    package func terminalColor(for color: ThemeColor) -> TerminalColor {
        switch (self, color) {
        case (.monochrome, _), (_, .terminalDefault):
            return .terminalDefault
        case (.ansi8, .ansi(let ansi)):
            return .indexed(ansi.index % 8)
        case (_, .ansi(let ansi)):
            return .indexed(ansi.index)
        case (.ansi8, .rgb(let rgb)):
            // A grey stays a grey (black or white), never the nearest hue.
            guard let hue = Self.nearestHue(rgb) else { return .indexed(Self.nearest(rgb, among: [0, 7])) }
            return .indexed(hue)
        case (.ansi16, .rgb(let rgb)):
            guard let hue = Self.nearestHue(rgb) else { return .indexed(Self.nearest(rgb, among: [0, 7, 8, 15])) }
            return .indexed(Self.nearest(rgb, among: [hue, hue + 8]))
        case (.xterm256, .rgb(let rgb)):
            return .indexed(Self.nearest(rgb, among: 16..<256))
        }
    }

    /// Foreground `color` as this terminal can draw it over a dark (or light) background:
    /// like ``terminalColor(for:)``, except that with 8 colours a grey that would fold onto
    /// the background's own colour (black on dark, white on light) takes the other one, so
    /// borders and muted text never vanish.
    package func foregroundColor(for color: ThemeColor, onDarkBackground dark: Bool) -> TerminalColor {
        let mapped = terminalColor(for: color)
        guard self == .ansi8, mapped == .indexed(dark ? 0 : 7) else { return mapped }
        let isExtreme: Bool =
            switch color {
            case .rgb(let rgb): [rgb.red, rgb.green, rgb.blue].allSatisfy { abs(Int($0) - (dark ? 0 : 255)) <= 40 }
            case .ansi(let ansi): ansi == (dark ? .black : .brightWhite) || (!dark && ansi == .white)
            case .terminalDefault: true
            }
        return isExtreme ? mapped : .indexed(dark ? 7 : 0)
    }

    /// The ANSI colour (1–6) whose hue is nearest `color`'s, ties going to the nearer colour;
    /// `nil` for a grey (channels within 40 of each other).
    static func nearestHue(_ color: RGBColor) -> Int? {
        let (red, green, blue) = (Double(color.red), Double(color.green), Double(color.blue))
        let high = max(red, green, blue)
        let chroma = high - min(red, green, blue)
        guard chroma >= 40 else { return nil }
        let sector: Double =
            high == red ? (green - blue) / chroma : high == green ? (blue - red) / chroma + 2 : (red - green) / chroma + 4
        let hue = (sector * 60 + 360).truncatingRemainder(dividingBy: 360)
        // ANSI 1 red 0°, 2 green 120°, 3 yellow 60°, 4 blue 240°, 5 magenta 300°, 6 cyan 180°.
        let hues: [(index: Int, degrees: Double)] = [(1, 0), (2, 120), (3, 60), (4, 240), (5, 300), (6, 180)]
        func gap(_ degrees: Double) -> Double {
            let difference = abs(hue - degrees)
            return min(difference, 360 - difference)
        }
        return hues.min { first, second in
            let (a, b) = (gap(first.degrees), gap(second.degrees))
            return a != b ? a < b : distance(color, xtermColor(first.index)) < distance(color, xtermColor(second.index))
        }?.index
    }

    /// The palette entry in `indices` closest to `color` (weighted "redmean" distance, which
    /// tracks perceived difference far better than plain RGB distance at no cost).
    static func nearest(_ color: RGBColor, among indices: some Sequence<Int>) -> Int {
        var best = 0
        var bestDistance = Int.max
        for index in indices {
            let distance = Self.distance(color, xtermColor(index))
            if distance < bestDistance {
                best = index
                bestDistance = distance
            }
        }
        return best
    }

    /// The colour xterm shows for palette entry `index` by default (0–255).
    static func xtermColor(_ index: Int) -> RGBColor {
        switch index {
        case 0..<16:
            let (red, green, blue) = ansiDefaults[index]
            return RGBColor(red: red, green: green, blue: blue)
        case 16..<232:
            let levels: [UInt8] = [0, 95, 135, 175, 215, 255]
            let cube = index - 16
            return RGBColor(red: levels[cube / 36], green: levels[cube / 6 % 6], blue: levels[cube % 6])
        default:
            let grey = UInt8(8 + 10 * (min(255, index) - 232))
            return RGBColor(red: grey, green: grey, blue: grey)
        }
    }

    private static let ansiDefaults: [(UInt8, UInt8, UInt8)] = [
        (0, 0, 0), (205, 0, 0), (0, 205, 0), (205, 205, 0), (0, 0, 238), (205, 0, 205), (0, 205, 205),
        (229, 229, 229), (127, 127, 127), (255, 0, 0), (0, 255, 0), (255, 255, 0), (92, 92, 255), (255, 0, 255),
        (0, 255, 255), (255, 255, 255),
    ]

    private static func distance(_ first: RGBColor, _ second: RGBColor) -> Int {
        let meanRed = (Int(first.red) + Int(second.red)) / 2
        let red = Int(first.red) - Int(second.red)
        let green = Int(first.green) - Int(second.green)
        let blue = Int(first.blue) - Int(second.blue)
        return (((512 + meanRed) * red * red) >> 8) + 4 * green * green + (((767 - meanRed) * blue * blue) >> 8)
    }
}

/// A colour as the terminal draws it.
package enum TerminalColor: Hashable, Sendable {
    /// The terminal's default foreground or background.
    case terminalDefault
    /// A palette entry: 0–15 ANSI, 16–231 colour cube, 232–255 greys.
    case indexed(Int)
}
