/// What a full-screen program needs from a terminal: input events, frames drawn by difference, and a
/// few settings. `CursesTerminal`'s `TerminalSession` is the real one; it is owned by one
/// thread, the one that runs ``ConsoleRuntime/run(on:notices:)``.
package protocol Terminal: AnyObject {
    /// The size in cells.
    var size: Size { get }
    /// Whether Unicode glyphs can be drawn.
    var supportsUnicode: Bool { get }
    /// The theme cells are drawn with.
    var theme: Theme { get set }
    /// Whether mouse events are reported.
    var mouseReporting: Bool { get set }
    /// The next event, waiting at most `timeout` (`nil`: forever); `nil` when none came.
    func nextEvent(timeout: Duration?) -> InputEvent?
    /// Draws a frame, writing only what changed since the last one.
    func draw(_ buffer: ScreenBuffer)
    /// Clears the terminal so the next frame is drawn whole.
    func redrawAll()
    /// Sets the clipboard to `bytes` with OSC 52; `false` (nothing written) where the terminal
    /// is not known to take it.
    func copyToClipboard(_ bytes: [UInt8]) -> Bool
    /// Gives the terminal back in its ordinary mode while `body` runs (a pager), then takes it
    /// again and draws the next frame whole.
    func suspend(_ body: () -> Void)
}
