import CacheDeckTestSupport
import Foundation
import Testing

@testable import CacheCore

/// `cachedeck clear` and `cachedeck sweep` on a real full filesystem (a 4 MB tmpfs filled by
/// an app through the library until a set failed): they delete without an undo copy, say so,
/// and the app writes again. A file filled without the reserve is beyond the tools until
/// space is freed, and they say exactly that. Needs root to mount the tmpfs.
@Suite(.serialized, .enabled(if: Tmpfs.isAvailable, "mounting a tmpfs needs root on Linux"))
struct FullDiskCommandTests {
    /// Runs `cachedeck` with its outputs outside the full filesystem.
    let outputs = try? TemporaryFolder()

    func run(_ arguments: String...) throws -> CLIResult {
        try CLIProcess(arguments, folder: try #require(outputs)).wait()
    }

    /// A 4 MB tmpfs whose cache file an app filled until a set failed (after `before`).
    static func filled(
        expiry: Duration? = nil, reserve: Int? = nil, before: (CacheStore, String) throws -> Void = { _, _ in }
    ) throws -> (Tmpfs, String, Int) {
        let disk = try Tmpfs(kilobytes: 4096)
        let path = disk.file("cache.sqlite")
        var options = StoreOptions()
        options.diskReserve = reserve
        let app = try CacheStore(path: path, options: options)
        try before(app, path)
        let (tiles, error) = try FullDisk.fill(app, expiry: expiry)
        #expect(error as? CacheError == .diskFull(path: path))
        try app.close()
        return (disk, path, tiles)
    }

    /// `1,700`.
    static func grouped(_ count: Int) -> String {
        let digits = Array(String(count))
        return String(
            digits.enumerated().flatMap { index, digit in
                index > 0 && (digits.count - index) % 3 == 0 ? [",", digit] : [digit]
            })
    }

    /// An app writes 100 entries of 2,000 bytes, and `keep` is whole.
    static func expectTheAppWritesAgain(_ path: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let app = try CacheStore(path: path)
        defer { try? app.close() }
        let tiles = try app.dataCache("tiles", key: Int.self, policy: NamespacePolicy(expiration: .never))
        for index in 0..<100 { try tiles.set(Data(repeating: 9, count: 2000), for: 1_000_000 + index) }
        #expect(try FullDisk.keptIsWhole(app), sourceLocation: sourceLocation)
    }

    @Test func clearOnAFullDiskDeletesWithoutUndoSaysSoAndTheAppWritesAgain() throws {
        let (disk, path, tiles) = try Self.filled()
        let dryRun = try run("clear", path, "tiles", "--dry-run")
        #expect(dryRun.stdout.contains("The disk is full: they will be deleted without an undo copy."), "\(dryRun)")
        let clear = try run("clear", path, "tiles", "--yes")
        #expect(clear.status == 0 && clear.stderr.isEmpty, "\(clear.stderr)")
        #expect(
            clear.stdout.hasPrefix("Disk full: cleared \(Self.grouped(tiles)) entries (")
                && clear.stdout.contains(") without keeping them for undo. Room for new entries: "), "\(clear.stdout)")
        #expect(!clear.stdout.contains("Undo with"))
        let audit = try run("audit", path)
        #expect(audit.stdout.split(separator: "\n").last?.contains("clear tiles") == true, "\(audit.stdout)")
        print("cachedeck clear on a full 4 MB tmpfs: \(clear.stdout)", terminator: "")
        try Self.expectTheAppWritesAgain(path)
        _ = disk
    }

    @Test func sweepOnAFullDiskDeletesTheExpiredAndTheAppWritesAgain() throws {
        let (disk, path, tiles) = try Self.filled(expiry: .milliseconds(1))
        let sweep = try run("sweep", path, "--yes", "--json")
        #expect(sweep.status == 0, "\(sweep.stderr)")
        let outcome = try sweep.object()
        #expect(outcome["removed"] as? Int == tiles && outcome["wasDiskFull"] as? Bool == true)
        #expect(outcome["notRemoved"] as? Int == 0 && outcome["isAudited"] as? Bool == true)
        try Self.expectTheAppWritesAgain(path)
        _ = disk
    }

    @Test func whenTheTrashHoldsTheSpaceASweepSaysSoAndPurgeFreesIt() throws {
        // An ordinary clear (the disk was not full yet) kept 600 entries for undo.
        let (disk, path, _) = try Self.filled { app, path in
            let old = try app.dataCache("old", key: Int.self, policy: NamespacePolicy(expiration: .never))
            for start in stride(from: 0, to: 600, by: 20) {
                try old.set((start..<start + 20).map { (key: $0, value: Data(repeating: 3, count: 2000)) })
            }
            let clear = try run("clear", path, "old", "--yes")
            #expect(clear.stdout.hasPrefix("Removed 600 entries (1.2 MB). Undo with: "), "\(clear.stdout)")
        }
        let clear = try run("clear", path, "keep", "--dry-run")
        #expect(clear.stdout.contains("The disk is full"), "\(clear.stdout)")
        let sweep = try run("sweep", path, "--yes")
        #expect(
            sweep.stdout.hasPrefix("Removed 0 entries (0 B). Room for new entries: ")
                && sweep.stdout.hasSuffix(
                    " The trash holds 600 more (1.2 MB) kept for undo by earlier actions: `cachedeck purge \(path)` deletes them.\n"
                ),
            "\(sweep.stdout)")
        let dryRun = try run("purge", path, "--dry-run")
        #expect(dryRun.stdout == "Dry run: The trash holds 600 entries (1.2 MB) kept for undo. Nothing was changed.\n")
        let purge = try run("purge", path, "--yes")
        #expect(
            purge.status == 0
                && purge.stdout.hasPrefix(
                    "Purged the trash: deleted 600 entries; their actions can no longer be undone. Room for new entries: "
                ),
            "\(purge.stdout)\(purge.stderr)")
        #expect(try run("purge", path, "--dry-run", "--json").object()["entries"] as? Int == 0)
        try Self.expectTheAppWritesAgain(path)
        _ = disk
    }

    @Test func aFileFilledWithoutTheReserveIsBeyondTheToolsUntilSpaceIsFreedAndTheySaySo() throws {
        let (disk, path, tiles) = try Self.filled(reserve: 0)
        let clear = try run("clear", path, "tiles", "--yes")
        print("cachedeck clear on a 4 MB tmpfs filled without the reserve: \(clear.stdout)\(clear.stderr)")
        #expect(clear.status == 1)
        #expect(clear.stdout.contains("could not be removed: the disk had no room left even to delete one."))
        #expect(clear.stdout.contains("cannot be copied into the file while the filesystem has 0 B free: free "))
        #expect(clear.stdout.hasSuffix(" there, then run this again.\n"))
        #expect(clear.errorLines.count == 1 && clear.stderr.contains("were not removed"), "\(clear.stderr)")
        let check = try run("check", path)
        #expect(check.status == 0 && check.stdout.hasSuffix("Healthy.\n"), "\(check.stdout)")
        // Freeing space on the filesystem (here: growing it) is what the message asks for.
        try disk.resize(kilobytes: 8192)
        let again = try run("clear", path, "tiles", "--yes")
        #expect(again.status == 0, "\(again.stdout)\(again.stderr)")
        #expect(try run("namespaces", path, "--json").stdout.contains("\"tiles\""))
        try Self.expectTheAppWritesAgain(path)
        _ = tiles
    }
}
