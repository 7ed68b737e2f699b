import CacheCore
import CacheDeckTestSupport
import Foundation

/// `composite-key PATH`: stores "from-helper" under ``CompositeKey/sample(reversed:)`` and
/// prints `ok`.
struct CompositeKeyCommand {
    let path: String

    init(_ arguments: inout Arguments) throws {
        path = try arguments.next("PATH")
    }

    func run() throws {
        let store = try CacheStore(path: path)
        let cache = try store.cache("composite", key: CompositeKey.self, value: String.self)
        try cache.set("from-helper", for: .sample(reversed: false))
        try store.close()
        Output.say("ok")
    }
}
