import CacheCore
import Foundation
import Synchronization

/// A namespace's key names and recorded policy JSON, made once per namespace and policy
/// rather than on every read and write (escaping and JSON encoding cost more than the rest
/// of a call's client work).
struct RedisNamespaceKeys: Sendable {
    let policy: NamespacePolicy
    /// The namespace hash.
    let namespace: String
    /// What entry keys start with (generation, `:` and key follow).
    let entries: String
    /// What tag sets start with (generation, `:` and tag follow).
    let tags: String
    /// The policy as recorded in the namespace hash.
    let policyJSON: String

    init(_ name: String, policy: NamespacePolicy, keys: RedisKeys) {
        self.policy = policy
        namespace = keys.namespace(name)
        entries = keys.entries(name)
        tags = keys.tags(name)
        policyJSON = Self.json(policy)
    }

    /// The policy JSON with sorted keys, as a file store records it.
    static func json(_ policy: NamespacePolicy) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return String(decoding: (try? encoder.encode(policy)) ?? Data("{}".utf8), as: UTF8.self)
    }
}

/// The ``RedisNamespaceKeys`` of each namespace a store has opened.
final class RedisNamespaceKeyCache: Sendable {
    private let keys: RedisKeys
    private let made = Mutex<[String: RedisNamespaceKeys]>([:])

    init(keys: RedisKeys) { self.keys = keys }

    /// The key names of `name` under `policy`.
    func of(_ name: String, policy: NamespacePolicy) -> RedisNamespaceKeys {
        if let known = made.withLock({ $0[name] }), known.policy == policy { return known }
        let fresh = RedisNamespaceKeys(name, policy: policy, keys: keys)
        made.withLock { $0[name] = fresh }
        return fresh
    }
}
