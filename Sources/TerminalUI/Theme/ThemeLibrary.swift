import Foundation

/// Finds themes by name: first `<name>.toml` in each folder in order (the user's themes
/// folder, then the shipped `Themes/` folder), then the built-in copies of the shipped themes.
/// A file may `inherits` another theme; roles it leaves out come from that theme, or from the
/// built-in `default` when it names none. A file that inherits its own name extends the next
/// theme of that name down the search order (so `~/.config/cachedeck/themes/default.toml`
/// can tweak the default theme).
package struct ThemeLibrary: Hashable, Sendable {
    /// Folders searched in order before the built-in themes.
    package let folders: [URL]

    /// A library searching `folders`, then the built-in themes.
    package init(folders: [URL]) {
        self.folders = folders
    }

    /// The standard library: the user's themes folder (see ``ConfigPaths``), then the shipped
    /// `Themes/` folders found from `executable` (see ``shippedFolders(executable:)``).
    package init(
        environment: [String: String] = ProcessInfo.processInfo.environment,
        executable: URL? = Bundle.main.executableURL
    ) {
        self.init(
            folders: [ConfigPaths(environment: environment).themesFolder] + Self.shippedFolders(executable: executable))
    }

    /// The shipped themes folders that exist for the executable at `executable`: an installed
    /// `<prefix>/share/cachedeck/themes` beside `<prefix>/bin`, and `Themes/` at the root of
    /// the package checkout it was built in (found by walking up to a folder holding
    /// `Package.swift`).
    package static func shippedFolders(executable: URL?) -> [URL] {
        guard let executable else { return [] }
        let manager = FileManager.default
        let binFolder = executable.resolvingSymlinksInPath().deletingLastPathComponent()
        var candidates = [
            binFolder.deletingLastPathComponent().appendingPathComponent("share/cachedeck/themes", isDirectory: true)
        ]
        var folder = binFolder
        for _ in 0..<6 where folder.path != "/" {
            if manager.fileExists(atPath: folder.appendingPathComponent("Package.swift").path) {
                candidates.append(folder.appendingPathComponent("Themes", isDirectory: true))
                break
            }
            folder = folder.deletingLastPathComponent()
        }
        return candidates.filter { candidate in
            var isFolder: ObjCBool = false
            return manager.fileExists(atPath: candidate.path, isDirectory: &isFolder) && isFolder.boolValue
        }
    }

    /// The names of the built-in themes: `default`, `light`, `high-contrast`, `monochrome`,
    /// `colorblind`.
    package static var builtInNames: [String] { BuiltInThemes.sources.map(\.key) }

    /// The TOML source of a built-in theme (to show it, or to save a copy to edit).
    package static func builtInSource(named name: String) -> String? {
        BuiltInThemes.source(named: name)
    }

    /// Every theme name available: files in the folders and the built-in themes, sorted.
    package var themeNames: [String] {
        let files = folders.flatMap { folder in
            ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
                .filter { $0.hasSuffix(".toml") }.map { String($0.dropLast(5)) }
                .filter(Self.isValidName)
        }
        return Set(files + Self.builtInNames).sorted()
    }

    /// The theme `name`; throws a one-line ``ConfigError`` naming the file and the line or key
    /// when it is missing or broken.
    package func theme(named name: String) throws(ConfigError) -> Theme {
        try resolve(name, from: 0, visited: [])
    }

    /// The theme `name`, or the built-in `default` with the reason when it cannot be loaded:
    /// the console always starts, and shows the error.
    package func themeOrFallback(named name: String) -> (theme: Theme, error: ConfigError?) {
        do {
            return (try theme(named: name), nil)
        } catch {
            return (Theme.fallback, error)
        }
    }

    /// Loads `name` from the first source at or after `start` (folders, then built-in).
    private func resolve(_ name: String, from start: Int, visited: Set<String>) throws(ConfigError) -> Theme {
        guard Self.isValidName(name) else {
            throw ConfigError(
                .invalidName, source: TOMLDocument.quoted(name),
                message: "not a theme name (use letters, digits, '.', '_' and '-')")
        }
        for index in start...folders.count {
            guard let (text, source) = try read(name, at: index) else { continue }
            let file = try ThemeFile(parsing: text, source: source)
            let key = "\(name)@\(index)"
            guard !visited.contains(key) else {
                throw ConfigError(
                    .inheritanceCycle, source: source, location: "inherits", message: "themes inherit in a circle")
            }
            let base: Theme
            if let parent = file.inherits {
                base = try resolve(parent, from: parent == name ? index + 1 : 0, visited: visited.union([key]))
            } else {
                base = .fallback
            }
            return Theme(name: name, file: file, base: base)
        }
        throw ConfigError(
            .notFound, source: "theme '\(name)'",
            message: "no such theme (available: " + themeNames.joined(separator: ", ") + ")")
    }

    /// The text and source name of `name` in source `index` (a folder, or the built-in themes
    /// after the last folder); `nil` when that source has no such theme.
    private func read(_ name: String, at index: Int) throws(ConfigError) -> (String, String)? {
        guard index < folders.count else {
            return BuiltInThemes.source(named: name).map { ($0, "built-in theme '\(name)'") }
        }
        let path = folders[index].appendingPathComponent(name + ".toml").path
        return try ConfigError.readText(at: path).map { ($0, path) }
    }

    /// Whether `name` is a plain file name: letters, digits, `.`, `_`, `-`, not starting with `.`.
    private static func isValidName(_ name: String) -> Bool {
        !name.isEmpty && !name.hasPrefix(".") && name.count <= 64
            && name.unicodeScalars.allSatisfy {
                $0.isASCII
                    && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "._-".unicodeScalars.contains($0))
            }
    }
}
