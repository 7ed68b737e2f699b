/// A colour as a theme names it.
package enum ThemeColor: Hashable, Sendable {
    /// The terminal's own foreground or background (keeps a transparent or user-chosen
    /// background visible).
    case terminalDefault
    /// One of the 16 ANSI colours, as the user's terminal palette shows it.
    case ansi(ANSIColor)
    /// An exact colour, drawn as the nearest colour the terminal has.
    case rgb(RGBColor)

    /// Parses `default`, an ANSI colour name (`red`, `brightBlue`, …) or `#rrggbb`;
    /// `nil` for anything else.
    package init?(name: String) {
        if name == "default" {
            self = .terminalDefault
        } else if let ansi = ANSIColor(rawValue: name) {
            self = .ansi(ansi)
        } else if let rgb = RGBColor(hex: name) {
            self = .rgb(rgb)
        } else {
            return nil
        }
    }
}

/// The 16 ANSI colours, by the names theme files use.
package enum ANSIColor: String, CaseIterable, Hashable, Sendable {
    /// Colour 0.
    case black
    /// Colour 1.
    case red
    /// Colour 2.
    case green
    /// Colour 3.
    case yellow
    /// Colour 4.
    case blue
    /// Colour 5.
    case magenta
    /// Colour 6.
    case cyan
    /// Colour 7.
    case white
    /// Colour 8.
    case brightBlack
    /// Colour 9.
    case brightRed
    /// Colour 10.
    case brightGreen
    /// Colour 11.
    case brightYellow
    /// Colour 12.
    case brightBlue
    /// Colour 13.
    case brightMagenta
    /// Colour 14.
    case brightCyan
    /// Colour 15.
    case brightWhite

    /// The colour number, 0–15.
    package var index: Int { Self.allCases.firstIndex(of: self) ?? 0 }
}

/// A 24-bit colour.
package struct RGBColor: Hashable, Sendable {
    /// Red, 0–255.
    package var red: UInt8
    /// Green, 0–255.
    package var green: UInt8
    /// Blue, 0–255.
    package var blue: UInt8

    /// The colour with these components.
    package init(red: UInt8, green: UInt8, blue: UInt8) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// Parses `#rrggbb` (either case); `nil` for anything else.
    package init?(hex: String) {
        let digits = hex.utf8.dropFirst()
        guard hex.utf8.first == UInt8(ascii: "#"), digits.count == 6,
            digits.allSatisfy(Self.isHexDigit), let value = UInt32(String(hex.dropFirst()), radix: 16)
        else { return nil }
        self.init(red: UInt8(value >> 16 & 0xFF), green: UInt8(value >> 8 & 0xFF), blue: UInt8(value & 0xFF))
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x30...0x39, 0x41...0x46, 0x61...0x66: return true
        default: return false
        }
    }

    /// `#rrggbb`, lowercase.
    package var hex: String {
        "#" + [red, green, blue].map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }
}
