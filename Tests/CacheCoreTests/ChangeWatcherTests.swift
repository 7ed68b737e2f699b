import Testing

@testable import CacheCore

@Suite struct ChangeWatcherTests {
    @Test func aWatcherSeesEveryCommitAndNothingElse() throws {
        let fixture = try TestStore()
        let reader = try fixture.inspectionStore()
        let watcher = try reader.inspector.changeWatcher()
        #expect(try watcher.hasChanged(), "the first call reports a change")
        #expect(try !watcher.hasChanged())
        _ = try reader.inspector.summary()
        #expect(try !watcher.hasChanged(), "reads are not changes")
        let colors = try fixture.store.cache("colors", key: Int.self, value: String.self)
        try colors.set("red", for: 1)
        #expect(try watcher.hasChanged())
        #expect(try !watcher.hasChanged())
        try fixture.store.admin.run(.clear(namespace: "colors"))
        #expect(try watcher.hasChanged(), "an admin action on the writer connection is a change too")
    }
}
