import Foundation

/// Where the console's user configuration lives: `$XDG_CONFIG_HOME/cachedeck`, or
/// `~/.config/cachedeck` when `XDG_CONFIG_HOME` is unset, empty or relative (as the XDG base
/// directory specification asks).
package struct ConfigPaths: Hashable, Sendable {
    /// The `cachedeck` configuration folder.
    package let folder: URL

    /// The folder for `environment` (the process environment by default).
    package init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        let base: URL
        if let xdg = environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") {
            base = URL(fileURLWithPath: xdg, isDirectory: true)
        } else if let home = environment["HOME"], home.hasPrefix("/") {
            base = URL(fileURLWithPath: home, isDirectory: true).appendingPathComponent(".config", isDirectory: true)
        } else {
            base = FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".config", isDirectory: true)
        }
        folder = base.appendingPathComponent("cachedeck", isDirectory: true)
    }

    /// User themes: `<folder>/themes/<name>.toml`.
    package var themesFolder: URL { folder.appendingPathComponent("themes", isDirectory: true) }

    /// Key binding overrides: `<folder>/keys.toml`.
    package var keyMapFile: URL { folder.appendingPathComponent("keys.toml", isDirectory: false) }
}
