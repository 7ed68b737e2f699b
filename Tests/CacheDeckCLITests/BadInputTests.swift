import Foundation
import Testing

@testable import CacheCore

/// Files that are not caches, and command lines that make no sense: one line on stderr, a
/// non-zero exit code, and nothing on disk touched.
@Suite struct BadInputTests {
    /// Something at the path that is not a usable cache file.
    enum BadFile: String, CaseIterable, CustomStringConvertible {
        case notADatabase, otherApplication, newerFormat, emptyFile, missing, directory

        var description: String { rawValue }

        /// Makes it in `folder`; returns its path.
        func make(in folder: TemporaryFolder) throws -> String {
            let path = folder.file("bad.sqlite")
            switch self {
            case .notADatabase:
                try Data("just some text, not SQLite\n".utf8).write(to: URL(fileURLWithPath: path))
            case .otherApplication:
                try CLIFixture.execute(
                    "CREATE TABLE invoices (id INTEGER PRIMARY KEY, total REAL); INSERT INTO invoices VALUES (1, 9.5);",
                    on: path)
            case .newerFormat:
                let store = try CacheStore(path: path, options: StoreOptions())
                try store.cache("colors", key: Int.self, value: String.self).set("red", for: 1)
                try store.close()
                try CLIFixture.execute("PRAGMA user_version = 99", on: path)
            case .emptyFile:
                try Data().write(to: URL(fileURLWithPath: path))
            case .missing:
                break
            case .directory:
                try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
            }
            return path
        }

        /// What the error line says after `cachedeck: <path>`-ish.
        var message: String {
            switch self {
            case .notADatabase: "is not a CacheDeck cache file: it is not a SQLite database"
            case .otherApplication: "is not a CacheDeck cache file: it holds another application's tables"
            case .newerFormat:
                "uses cache format 99, newer than the supported \(Schema.currentVersion); upgrade CacheDeck to open it"
            case .emptyFile: "is not a CacheDeck cache file: the file is empty"
            case .missing: ": no such file"
            case .directory: ": it is a directory"
            }
        }
    }

    /// Every command that opens the file, read-only or to act on it (`FILE` is the path).
    static let commands: [[String]] = [
        ["info", "FILE"], ["namespaces", "FILE", "--json"], ["ls", "FILE", "colors"], ["show", "FILE", "colors", "1"],
        ["timeline", "FILE"], ["stats", "FILE"], ["check", "FILE"], ["audit", "FILE"],
        ["check", "FILE", "--fix", "--yes"], ["sweep", "FILE", "--yes"], ["clear", "FILE", "--all", "--yes"],
        ["invalidate", "FILE", "colors", "--key", "1", "--yes"], ["restore", "FILE", "1"],
    ]

    @Test(arguments: BadFile.allCases)
    func everyCommandRefusesWithOneLineAndTouchesNothing(_ bad: BadFile) throws {
        let fixture = try CLIFixture()
        let folder = try TemporaryFolder()
        let path = try bad.make(in: folder)
        let listing = try folder.listing()
        let bytes = FileManager.default.contents(atPath: path)
        // An empty file would be initialised by a writable open: only read commands get one.
        let commands = bad == .emptyFile ? Array(Self.commands.prefix(8)) : Self.commands
        for command in commands {
            let arguments = command.map { $0 == "FILE" ? path : $0 }
            let result = try fixture.run(arguments)
            #expect(result.status == 1, "\(arguments)")
            #expect(result.stdout.isEmpty, "\(arguments)")
            #expect(result.errorLines.count == 1, "\(arguments): \(result.stderr)")
            let line = result.errorLines.first ?? ""
            #expect(line.hasPrefix("cachedeck: ") && line.contains(path) && line.contains(bad.message), "\(line)")
            #expect(FileManager.default.contents(atPath: path) == bytes, "\(arguments) changed the file")
            let added = Set(try folder.listing()).subtracting(listing)
            #expect(added.isSubset(of: ["bad.sqlite-wal", "bad.sqlite-shm"]), "\(arguments) left \(added) behind")
            let log = FileManager.default.contents(atPath: path + "-wal")
            #expect(log == nil || log?.isEmpty == true, "SQLite's read-only sidecars hold nothing")
        }
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
