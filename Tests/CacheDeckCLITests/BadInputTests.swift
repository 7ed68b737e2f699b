import CacheDeckTestSupport
import Foundation
import Testing

@testable import CacheCore

/// Files that are not caches, and command lines that make no sense: one line on stderr, a
/// non-zero exit code, and nothing on disk touched.
@Suite struct BadInputTests {
    /// The line after `cachedeck: ` for anything that cannot use `bad` at `path` (for a
    /// read-only file: anything that would write it).
    static func message(_ bad: BadFile, path: String) throws -> String {
        switch bad {
        case .notADatabase: "\(path) is not a CacheDeck cache file: it is not a SQLite database"
        case .otherApplication:
            "\(path) is not a CacheDeck cache file: it holds another application's tables (invoices)"
        case .pythonDiskcache: "\(path) is not a CacheDeck cache file: it is a python-diskcache cache"
        case .newerFormat:
            "\(path) uses cache format 99, newer than the supported \(Schema.currentVersion); upgrade CacheDeck to open it"
        case .truncated:
            // Cut to half: the header still records the whole file.
            "\(path) is not a CacheDeck cache file: it is truncated: \(try size(path)) of the \(2 * (try size(path))) "
                + "bytes its header records"
        case .emptyFile: "\(path) is not a CacheDeck cache file: the file is empty"
        case .missing: "cannot open \(path): no such file"
        case .directory: "cannot open \(path): it is a directory"
        case .readOnly:
            "\(path) is read-only: writes are refused (read commands and the --read-only console still work)"
        case .permissionDenied: "cannot open \(path): permission denied"
        }
    }

    static func size(_ path: String) throws -> Int {
        try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? -1
    }

    /// Commands that only read the file (`FILE` is the path).
    static let readCommands: [[String]] = [
        ["info", "FILE"], ["namespaces", "FILE", "--json"], ["ls", "FILE", "colors"], ["show", "FILE", "colors", "1"],
        ["timeline", "FILE"], ["stats", "FILE"], ["check", "FILE"], ["audit", "FILE"],
    ]
    /// Commands that act on it.
    static let writeCommands: [[String]] = [
        ["check", "FILE", "--fix", "--yes"], ["sweep", "FILE", "--yes"], ["clear", "FILE", "--all", "--yes"],
        ["invalidate", "FILE", "colors", "--key", "1", "--yes"], ["restore", "FILE", "1"], ["purge", "FILE", "--yes"],
    ]
    /// The console, read-write and read-only (stdin is not a terminal in these runs).
    static let consoleCommands: [[String]] = [["FILE"], ["--read-only", "FILE"]]

    /// A python-diskcache file is not bad input to the CLI: it opens as a foreign cache
    /// (ForeignCommandTests); CacheCore itself still refuses it (BadFileTests).
    @Test(arguments: BadFile.allCases.filter { $0 != .readOnly && $0 != .pythonDiskcache })
    func everyCommandAndTheConsoleRefuseWithOneLineAndTouchNothing(_ bad: BadFile) throws {
        let runs = try TemporaryFolder()
        let folder = try TemporaryFolder()
        let path = try bad.make(in: folder.path)
        let listing = try folder.listing()
        let bytes = FileManager.default.contents(atPath: path)
        let expected = "cachedeck: " + (try Self.message(bad, path: path))
        for command in Self.readCommands + Self.writeCommands + Self.consoleCommands {
            let arguments = command.map { $0 == "FILE" ? path : $0 }
            let result = try CLIProcess(arguments, folder: runs, unprivileged: bad.needsUnprivilegedUser).wait()
            #expect(result.status == 1, "\(arguments)")
            #expect(result.stdout.isEmpty, "\(arguments)")
            #expect(result.errorLines == [expected], "\(arguments)")
            #expect(FileManager.default.contents(atPath: path) == bytes, "\(arguments) changed the file")
            try expectNothingLeftBehind(in: folder, besides: listing, path: path, after: arguments)
        }
    }

    @Test func aReadOnlyFileServesReadsAndTheConsoleButRefusesWritesWithOneLine() throws {
        let runs = try TemporaryFolder()
        let folder = try TemporaryFolder()
        let path = try BadFile.readOnly.make(in: folder.path)
        let listing = try folder.listing()
        let bytes = FileManager.default.contents(atPath: path)
        for command in Self.readCommands {
            let arguments = command.map { $0 == "FILE" ? path : $0 }
            let result = try CLIProcess(arguments, folder: runs, unprivileged: true).wait()
            #expect(result.status == 0 && result.stderr.isEmpty && !result.stdout.isEmpty, "\(arguments): \(result)")
        }
        let refused = "cachedeck: " + (try Self.message(.readOnly, path: path))
        for command in Self.writeCommands {
            let arguments = command.map { $0 == "FILE" ? path : $0 }
            let result = try CLIProcess(arguments, folder: runs, unprivileged: true).wait()
            #expect(result.status == 1 && result.stdout.isEmpty && result.errorLines == [refused], "\(arguments)")
        }
        // Both consoles open the file (the read-write one falls back to read-only) and only
        // then find no terminal.
        for command in Self.consoleCommands {
            let arguments = command.map { $0 == "FILE" ? path : $0 }
            let result = try CLIProcess(arguments, folder: runs, unprivileged: true).wait()
            #expect(
                result.status == 1
                    && result.errorLines == [
                        "cachedeck: the console needs a terminal: standard input and output must not be redirected"
                    ], "\(arguments)")
        }
        #expect(FileManager.default.contents(atPath: path) == bytes)
        try expectNothingLeftBehind(in: folder, besides: listing, path: path, after: ["every command"])
    }

    /// Only SQLite's empty sidecars may appear (where the user may create them).
    private func expectNothingLeftBehind(
        in folder: TemporaryFolder, besides listing: [String], path: String, after arguments: [String]
    ) throws {
        let name = (path as NSString).lastPathComponent
        let added = Set(try folder.listing()).subtracting(listing)
        #expect(added.isSubset(of: [name + "-wal", name + "-shm"]), "\(arguments) left \(added) behind")
        let log = FileManager.default.contents(atPath: path + "-wal")
        #expect(log == nil || log?.isEmpty == true, "SQLite's read-only sidecars hold nothing")
    }

    @Test func usageErrorsExitTwoAndChangeNothing() throws {
        let fixture = try CLIFixture()
        let bytes = fixture.bytes
        let misuses: [[String]] = [
            ["info"], ["ls", fixture.path], ["ls", fixture.path, "colors", "--limit", "0"],
            ["ls", fixture.path, "colors", "--sort", "colour"], ["ls", fixture.path, "colors", "--filter", "size>>1"],
            ["ls", fixture.path, "colors", "--filter", "ttl<soon"], ["ls", fixture.path, "colors", "--after", "xyz"],
            ["stats", fixture.path, "--interval", "5"], ["stats", fixture.path, "--watch", "--interval", "0"],
            ["check", fixture.path, "--yes"], ["clear", fixture.path], ["clear", fixture.path, "colors", "--all"],
            ["invalidate", fixture.path, "colors"], ["restore", fixture.path, "one"],
        ]
        for arguments in misuses {
            let result = try fixture.run(arguments)
            #expect(result.status == 2, "\(arguments)")
            #expect(
                result.stdout.isEmpty && result.stderr.contains("Usage: cachedeck"), "\(arguments): \(result.stderr)")
        }
        #expect(fixture.bytes == bytes)
        // A bare word is a file for the console: a missing one is a failure, not a usage error.
        let missing = try fixture.run(["frobnicate"])
        #expect(missing.status == 1 && missing.stderr == "cachedeck: cannot open frobnicate: no such file\n")
    }

    @Test func aMissingNamespaceOrCursorOfAnotherOrderFailsWithOneLine() throws {
        let fixture = try CLIFixture()
        let unknown = try fixture.run("ls", fixture.path, "nope")
        #expect(unknown.status == 1 && unknown.errorLines == ["cachedeck: no namespace named 'nope'"])
        let page = try fixture.run("ls", fixture.path, "tiles", "--limit", "2", "--json").object()
        let token = try #require(page["next"] as? String)
        let other = try fixture.run("ls", fixture.path, "tiles", "--sort", "size", "--after", token)
        #expect(
            other.status == 1
                && other.errorLines == [
                    "cachedeck: the cursor belongs to another namespace or sort order; start from the first page"
                ])
    }
}
