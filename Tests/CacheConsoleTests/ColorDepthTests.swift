import CacheConsole
import TerminalUI
import Testing

@Suite struct ColorDepthTests {
    private func rgb(_ hex: String) -> ThemeColor {
        ThemeColor(name: hex) ?? .terminalDefault
    }

    @Test(arguments: [
        (0, ColorDepth.monochrome), (2, .monochrome), (8, .ansi8), (16, .ansi16), (88, .ansi16),
        (256, .xterm256), (16_777_216, .xterm256),
    ])
    func depthFollowsTheColourCount(count: Int, depth: ColorDepth) {
        #expect(ColorDepth(colorCount: count) == depth)
    }

    @Test(arguments: [
        ("#000000", 16), ("#ffffff", 231), ("#ff0000", 196), ("#5fafff", 75), ("#808080", 244), ("#767676", 243),
        ("#1c1c1c", 234), ("#af87ff", 141), ("#005f87", 24), ("#fe0101", 196), ("#0a0a0a", 232),
    ])
    func exactColoursMapToTheNearestOfThe256ColourCubeAndGreys(hex: String, index: Int) {
        #expect(ColorDepth.xterm256.terminalColor(for: rgb(hex)) == .indexed(index))
    }

    @Test(arguments: [
        ("#ff0000", 9), ("#cd0000", 1), ("#000080", 4), ("#ffffff", 15), ("#808080", 8), ("#00ff00", 10),
        ("#1c1c1c", 0), ("#d0d0d0", 7),
    ])
    func exactColoursMapToTheNearestOf16(hex: String, index: Int) {
        #expect(ColorDepth.ansi16.terminalColor(for: rgb(hex)) == .indexed(index))
    }

    @Test func exactColoursMapToTheNearestOf8() {
        #expect(ColorDepth.ansi8.terminalColor(for: rgb("#ff0000")) == .indexed(1))
        #expect(ColorDepth.ansi8.terminalColor(for: rgb("#ffffff")) == .indexed(7))
        #expect(ColorDepth.ansi8.terminalColor(for: rgb("#5fafff")) == .indexed(6))
    }

    @Test func ansiColoursKeepTheirNumberAndDefaultStaysDefault() {
        #expect(ColorDepth.xterm256.terminalColor(for: .ansi(.brightRed)) == .indexed(9))
        #expect(ColorDepth.ansi16.terminalColor(for: .ansi(.brightRed)) == .indexed(9))
        #expect(ColorDepth.ansi8.terminalColor(for: .ansi(.brightRed)) == .indexed(1))
        for depth in ColorDepth.allCases {
            #expect(depth.terminalColor(for: .terminalDefault) == .terminalDefault)
        }
        #expect(ColorDepth.monochrome.terminalColor(for: .ansi(.red)) == .terminalDefault)
        #expect(ColorDepth.monochrome.terminalColor(for: rgb("#ff0000")) == .terminalDefault)
    }
}
