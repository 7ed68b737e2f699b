import ArgumentParser
import CacheConsole
import TerminalUI
import CacheCore
import CacheCoreRedis
import CursesTerminal
import Foundation

/// Starts the full-screen console on a data source: loads the user's key bindings and theme,
/// takes over the terminal, runs the console until the operator quits, and gives the
/// terminal back (also on errors and signals).
struct ConsoleLauncher {
    /// The theme to start with.
    let theme: Theme
    /// The refresh interval.
    let refresh: Duration

    /// The environment variable naming a file the console writes its frame number to each
    /// time it is idle (end-to-end tests wait on it).
    static let idleSignalVariable = "CACHEDECK_IDLE_FILE"

    /// The theme `name`, or a usage error naming the available ones. A theme file that exists
    /// but is broken falls back to the built-in default, and the console says why.
    static func theme(named name: String) throws -> (Theme, notice: String?) {
        let (theme, error) = ThemeLibrary().themeOrFallback(named: name)
        guard let error else { return (theme, nil) }
        switch error.kind {
        case .notFound, .invalidName: throw ValidationError(error.description)
        default: return (theme, "Theme: \(error.description)")
        }
    }

    /// Runs the console on this thread until the operator quits.
    func run(on source: any ConsoleDataSource, notices: [String] = []) throws {
        let (keyMap, keyError) = KeyMap.loadOrDefaults(from: ConfigPaths().keyMapFile)
        let settings = ConsoleSettings(keyMap: keyMap, themes: ThemeLibrary(), refreshInterval: refresh)
        let environment = ProcessInfo.processInfo.environment
        try TerminalSession.run(options: TerminalOptions(theme: theme)) { session in
            let controller = ConsoleController(
                location: source.location, isReadOnly: source.isReadOnly, isKeyspace: source.isKeyspace,
                hasKeyspace: source.hasKeyspace,
                themeName: theme.name, settings: settings,
                size: session.size, now: Int64(Date().timeIntervalSince1970 * 1000))
            let runtime = ConsoleRuntime(
                source: source, controller: controller,
                options: RenderOptions(glyphs: session.supportsUnicode ? .unicode : .ascii),
                idleSignalPath: environment[Self.idleSignalVariable])
            runtime.run(on: session, notices: notices + (keyError.map { ["Keys: \($0.description)"] } ?? []))
        }
    }

    /// Runs the console on a thread of its own (curses wants one owner, and an async caller's
    /// thread must not block), and returns when the operator quits.
    func runDetached(on source: any ConsoleDataSource, notices: [String] = []) async throws {
        let launcher = self
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            let thread = Thread {
                do {
                    try launcher.run(on: source, notices: notices)
                    continuation.resume()
                } catch {
                    continuation.resume(throwing: error)
                }
            }
            thread.name = "cachedeck console"
            thread.start()
        }
    }
}
