import TerminalUI
/// How the terminal can draw: Unicode glyphs or plain ASCII.
package struct RenderOptions: Sendable, Hashable {
    /// Graph, bar and arrow glyphs.
    package var glyphs: GlyphSet

    /// Options drawing with `glyphs`.
    package init(glyphs: GlyphSet = .unicode) {
        self.glyphs = glyphs
    }

    /// Box borders to match.
    var border: BorderStyle { glyphs == .unicode ? .rounded : .ascii }
    /// The separator between breadcrumbs.
    var crumbSeparator: String { glyphs == .unicode ? " › " : " > " }
    /// A dot between facts.
    var dot: String { glyphs == .unicode ? " · " : " - " }
    /// The marker of a marked row.
    var markGlyph: String { glyphs == .unicode ? "●" : "*" }
    /// A live process.
    var liveGlyph: String { glyphs == .unicode ? "●" : "+" }
    /// A stopped process.
    var stoppedGlyph: String { glyphs == .unicode ? "○" : "-" }
    /// An ellipsis.
    var ellipsis: String { glyphs == .unicode ? "…" : "..." }
}
