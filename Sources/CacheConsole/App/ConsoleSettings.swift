import TerminalUI
/// What the console is started with besides the data: key bindings, where themes come from,
/// the refresh interval.
package struct ConsoleSettings: Sendable {
    /// The key bindings.
    package var keyMap: KeyMap
    /// Where `:theme NAME` looks for themes.
    package var themes: ThemeLibrary
    /// How often live data is refreshed (clamped to ``LiveState/intervals``).
    package var refreshInterval: Duration

    /// Settings with these values; by default the built-in keys and themes and a 1 s refresh.
    package init(
        keyMap: KeyMap = .defaults, themes: ThemeLibrary = ThemeLibrary(folders: []),
        refreshInterval: Duration = .seconds(1)
    ) {
        self.keyMap = keyMap
        self.themes = themes
        self.refreshInterval = refreshInterval
    }
}
