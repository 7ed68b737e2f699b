import CacheCore
import Foundation

/// A fresh temporary folder per test, removed when the value is released.
final class TemporaryFolder {
    let path: String

    init() {
        path = NSTemporaryDirectory() + "cachedeck-tests-" + UUID().uuidString
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    func file(_ name: String = "cache.sqlite") -> String { path + "/" + name }
}

/// A store on a temporary file with a manual clock.
struct TestStore {
    let folder = TemporaryFolder()
    let clock = ManualClock()
    let store: CacheStore

    init(configure: (inout StoreOptions) -> Void = { _ in }) throws {
        var options = StoreOptions(clock: clock)
        configure(&options)
        store = try CacheStore(path: folder.file(), options: options)
    }

    func reopen(configure: (inout StoreOptions) -> Void = { _ in }) throws -> CacheStore {
        var options = StoreOptions(clock: clock)
        configure(&options)
        return try CacheStore(path: folder.file(), options: options)
    }
}
