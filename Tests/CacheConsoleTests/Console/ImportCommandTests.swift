import CacheCore
import Foundation
import Testing

@testable import CacheConsole
import TerminalUI

/// `:import FILE [NAME]` in the console over a real file: the dialog previews it, `y` writes
/// it, `u` undoes it, and a bad file is refused in one line with nothing imported.
@Suite struct ConsoleImportTests {
    private func store() throws -> (CacheStore, Cache<String, Int>, TemporaryFolder) {
        let folder = TemporaryFolder()
        let store = try CacheStore(path: folder.url.appendingPathComponent("cache.sqlite").path)
        let tiles = try store.cache("tiles", key: String.self, value: Int.self)
        try tiles.set(1, for: "a")
        return (store, tiles, folder)
    }

    private func line(_ key: String, _ value: Int) -> String {
        #"{"namespace":"tiles","key":"\#(key)","value":\#(value),"tags":[],"createdAt":1000}"#
    }

    @Test func importPreviewsNewAndReplacingWritesOnYesAndUndoes() throws {
        let (store, tiles, folder) = try store()
        let file = folder.url.appendingPathComponent("in.jsonl").path
        try [line("a", 7), line("b", 8)].joined(separator: "\n").write(toFile: file, atomically: true, encoding: .utf8)
        var harness = ConsoleHarness(columns: 100, rows: 30, source: try StoreDataSource(store: store))
        harness.press(.character(":"))
        harness.type("import \(file)")
        harness.press(.enter)
        let dialog = harness.screen()
        #expect(dialog.contains("Import 2 entries into tiles"))
        #expect(dialog.contains("1 new · 1 replacing"))
        #expect(dialog.contains("Import them? [y/N]"))
        #expect(try tiles.get("b") == nil, "nothing is written before y")
        harness.press(.character("y"))
        #expect(harness.screen().contains("Import 2 entries into tiles: wrote 2 entries"))
        #expect(try tiles.get("a") == 7 && tiles.get("b") == 8)
        harness.press(.character("u"))
        #expect(harness.screen().contains("Undid import #"))
        #expect(try tiles.get("a") == 1 && tiles.get("b") == nil)
    }

    @Test func aBadLineIsRefusedInOneLineAndNothingIsImported() throws {
        let (store, tiles, folder) = try store()
        let file = folder.url.appendingPathComponent("bad.jsonl").path
        try [line("b", 8), #"{"namespace":"tiles","key":"c"}"#].joined(separator: "\n")
            .write(toFile: file, atomically: true, encoding: .utf8)
        var harness = ConsoleHarness(columns: 120, rows: 30, source: try StoreDataSource(store: store))
        harness.press(.character(":"))
        harness.type("import \(file)")
        harness.press(.enter)
        let status = try #require(harness.model.status)
        #expect(status.isError)
        #expect(status.text.contains("line 2:") && status.text.contains("nothing was imported"))
        #expect(!status.text.contains("\n"))
        #expect(harness.model.overlay == nil, "no dialog opens")
        #expect(try tiles.get("b") == nil && tiles.count() == 1)

        harness.press(.character(":"))
        harness.type("import \(folder.url.path)/missing.jsonl")
        harness.press(.enter)
        #expect(harness.model.status?.text.contains("cannot read") == true)
        #expect(try tiles.count() == 1)
    }
}
