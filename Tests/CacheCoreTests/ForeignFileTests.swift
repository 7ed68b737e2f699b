import Foundation
import Testing

@testable import CacheCore

/// What is at the cache's path when it is not a cache: never written through a link, replaced
/// only when the app says so, and the copies moved aside are bounded.
@Suite struct ForeignFileTests {
    /// Fails on a store that opened the link: it wrote a 90 kB database into the empty notes file.
    @Test func aLinkToAnEmptyFileIsRefusedAndTheFileLeftEmpty() throws {
        let folder = TemporaryFolder()
        let notes = folder.file("notes.txt")
        #expect(FileManager.default.createFile(atPath: notes, contents: Data()))
        let link = folder.file("cache.sqlite")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: notes)
        for replaces in [false, true] {
            var options = StoreOptions()
            options.replacesForeignFile = replaces
            let refusal = CacheError.notACacheFile(
                path: link, reason: "it is a symbolic link to an empty file (not written through)")
            #expect(throws: refusal) { try CacheStore(path: link, options: options) }
        }
        #expect(fileBytes(notes) == Data())
        #expect(FileManager.default.fileExists(atPath: notes + "-wal") == false)
    }

    @Test func anotherProgramsDatabaseIsReplacedOnlyByOption() throws {
        let folder = TemporaryFolder()
        let path = folder.file()
        try rawExecute(
            path: path, "CREATE TABLE minicache (k TEXT, v BLOB); INSERT INTO minicache VALUES ('a', x'01')")
        let original = try #require(fileBytes(path))
        #expect(throws: CacheError.self) { try CacheStore(path: path) }
        #expect(fileBytes(path) == original)

        var options = StoreOptions()
        options.replacesForeignFile = true
        let store = try CacheStore(path: path, options: options)
        defer { try? store.close() }
        let moved = try #require(store.quarantinedFile)
        #expect(moved.reason.contains("minicache"))
        #expect(fileBytes(moved.movedTo) == original)
        try store.cache("n", key: Int.self, value: Int.self).set(1, for: 1)
        #expect(try store.cache("n", key: Int.self, value: Int.self).get(1) == 1)
    }

    @Test func onlyTheNewestFilesMovedAsideAreKept() throws {
        let folder = TemporaryFolder()
        let path = folder.file()
        let clock = ManualClock()
        var options = StoreOptions(clock: clock)
        options.replacesForeignFile = true
        options.keptQuarantinedFiles = 2
        var moved: [String] = []
        for round in 0..<4 {
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
            try rawExecute(path: path, "CREATE TABLE other\(round) (x)")
            let store = try CacheStore(path: path, options: options)
            moved.append(try #require(store.quarantinedFile?.movedTo))
            try store.close()
            clock.advance(by: .seconds(1))
        }
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.contains(".corrupt-") }
        #expect(Set(left) == Set(moved.suffix(2).map { ($0 as NSString).lastPathComponent }))
    }
}
