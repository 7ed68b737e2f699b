import CacheCore
import Foundation

/// Fills a cache file on a small tmpfs through the library, as an app would, until a write
/// fails: the fixture of the full-disk tests of the library and of the CLI.
public enum FullDisk {
    /// Entries of namespace `keep`, which no test removes.
    public static let kept = 50

    /// The value of `keep` entry `index`.
    public static func keptValue(_ index: Int) -> Data { Data(repeating: UInt8(index), count: 500) }

    /// Writes `keep`, then namespace `tiles` in sets of 20 entries of 2,000 bytes (expiring
    /// after `expiry`, never by default, with no stale window) until a set fails. Returns the tiles written and the
    /// error that stopped it.
    public static func fill(_ store: CacheStore, expiry: Duration? = nil) throws -> (tiles: Int, error: any Error) {
        let keep = try store.dataCache("keep", key: Int.self, policy: NamespacePolicy(expiration: .never))
        for index in 0..<kept { try keep.set(keptValue(index), for: index) }
        let tiles = try store.dataCache(
            "tiles", key: Int.self,
            policy: NamespacePolicy(expiration: expiry.map { .after($0) } ?? .never, staleWindow: .zero))
        var written = 0
        while true {
            do {
                try tiles.set((0..<20).map { (key: written + $0, value: Data(repeating: 7, count: 2000)) })
                written += 20
            } catch {
                return (written, error)
            }
        }
    }

    /// Whether every `keep` entry is there, byte for byte.
    public static func keptIsWhole(_ store: CacheStore) throws -> Bool {
        let keep = try store.dataCache("keep", key: Int.self, policy: NamespacePolicy(expiration: .never))
        return try (0..<kept).allSatisfy { try keep.get($0) == keptValue($0) } && keep.count() == kept
    }
}
