import CacheDeckTestSupport
import Foundation
import Testing

/// Every bad file through every surface, on a fresh copy each: the library (the test helper's
/// `probe`, with the app's defaults, `.inspection()` and `readOnly: true`), a read command, a
/// write command and both consoles. It checks the rules every cell shares; with
/// `CACHEDECK_BADFILE_MATRIX=PATH` it also writes the whole matrix there as a Markdown table.
@Suite struct BadFileMatrixTests {
    struct Surface: Sendable {
        let name: String
        let helper: Bool
        let arguments: [String]
    }

    static let surfaces: [Surface] = [
        Surface(name: "library, default options", helper: true, arguments: ["probe", "FILE", "default"]),
        Surface(name: "library, .inspection()", helper: true, arguments: ["probe", "FILE", "inspection"]),
        Surface(name: "library, readOnly: true", helper: true, arguments: ["probe", "FILE", "read-only"]),
        Surface(name: "CLI read: info", helper: false, arguments: ["info", "FILE"]),
        Surface(name: "CLI write: sweep --yes", helper: false, arguments: ["sweep", "FILE", "--yes"]),
        Surface(name: "console: cachedeck FILE", helper: false, arguments: ["FILE"]),
        Surface(name: "console: --read-only", helper: false, arguments: ["--read-only", "FILE"]),
    ]

    struct Cell {
        let bad: BadFile
        let surface: Surface
        let status: Int32
        let line: String
        let errorLines: Int
        let file: String
    }

    @Test func everyKindThroughEverySurface() throws {
        let runs = try TemporaryFolder()
        var cells: [Cell] = []
        for bad in BadFile.allCases {
            for surface in Self.surfaces {
                cells.append(try Self.run(bad, through: surface, runs: runs))
            }
        }
        for cell in cells {
            let label = "\(cell.bad) × \(cell.surface.name)"
            #expect(cell.status == 0 || cell.status == 1, "\(label)")
            #expect(cell.status == 0 || cell.errorLines == 1, "\(label): \(cell.line)")
            // A python-diskcache file is a foreign cache to the CLI: `sweep --yes` removes its
            // expired rows into the CacheDeck trash (docs/foreign-caches.md). Nothing else changes a file.
            let sweepsForeign = cell.bad == .pythonDiskcache && cell.surface.arguments.first == "sweep"
            #expect(!cell.file.hasPrefix("changed") || sweepsForeign, "\(label): \(cell.file)")
        }
        if let target = ProcessInfo.processInfo.environment["CACHEDECK_BADFILE_MATRIX"], !target.isEmpty {
            try Data(Self.table(cells).utf8).write(to: URL(fileURLWithPath: target))
        }
    }

    /// Makes `bad` in a folder of its own, runs `surface` on it, and says what became of it.
    static func run(_ bad: BadFile, through surface: Surface, runs: TemporaryFolder) throws -> Cell {
        let folder = try TemporaryFolder()
        let path = try bad.make(in: folder.path)
        let before = FileManager.default.contents(atPath: path)
        let arguments = surface.arguments.map { $0 == "FILE" ? path : $0 }
        let result = try CLIProcess(
            arguments, folder: runs, executable: surface.helper ? HelperBinary.path() : nil,
            unprivileged: bad.needsUnprivilegedUser
        ).wait()
        let shown = result.status == 0 ? result.stdout : result.stderr
        let line = (shown.split(separator: "\n").first.map(String.init) ?? "")
            .replacingOccurrences(of: folder.path + "/", with: "")
        return Cell(
            bad: bad, surface: surface, status: result.status, line: line, errorLines: result.errorLines.count,
            file: try fate(of: path, before: before, in: folder))
    }

    /// What happened to the file: unchanged, moved aside (quarantined), created or changed.
    static func fate(of path: String, before: Data?, in folder: TemporaryFolder) throws -> String {
        let manager = FileManager.default
        var isDirectory: ObjCBool = false
        let exists = manager.fileExists(atPath: path, isDirectory: &isDirectory)
        if isDirectory.boolValue { return "unchanged (a directory)" }
        guard let before else { return exists ? "created (a new cache)" : "unchanged (still missing)" }
        let now = manager.contents(atPath: path)
        if now == before { return "unchanged" }
        let name = (path as NSString).lastPathComponent
        if let moved = try folder.listing().first(where: { $0.hasPrefix(name + ".corrupt-") }) {
            let kept = manager.contents(atPath: folder.file(moved)) == before
            return kept ? "moved aside to \(name).corrupt-…, byte-identical; a new cache in its place" : "changed"
        }
        return before.isEmpty ? "initialised (an empty file is a new cache)" : "changed"
    }

    static func table(_ cells: [Cell]) -> String {
        var lines = [
            "| kind | surface | exit | line (stderr, or stdout's first on success) | file |", "|---|---|---|---|---|",
        ]
        for cell in cells {
            let text = cell.line.replacingOccurrences(of: "|", with: "\\|")
            lines.append("| \(cell.bad) | \(cell.surface.name) | \(cell.status) | `\(text)` | \(cell.file) |")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
