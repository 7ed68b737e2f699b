import CacheCore
import Foundation

/// The names of a ``RedisStore``'s keys under its prefix; docs/REDIS.md is their contract.
///
/// Namespace names are escaped inside key names (`%` as `%25`, `:` as `%3A`), so the first
/// `:` after a namespace always ends it; keys and tags come last, verbatim.
struct RedisKeys: Sendable {
    let prefix: String

    /// Every namespace name ever opened.
    var namespaces: String { prefix + "namespaces" }
    /// Generations whose entries are still being unlinked, as `<ns>:<generation>`.
    var retired: String { prefix + "retired" }
    /// The counter client ids come from.
    var clientSequence: String { prefix + "clientseq" }
    /// Client ids scored by their last heartbeat.
    var clients: String { prefix + "clients" }
    /// What every entry key starts with (the near cache's tracked prefix).
    var entryPrefix: String { prefix + "e:" }
    /// What every namespace hash starts with (tracked too: a clear changes it).
    var namespacePrefix: String { prefix + "n:" }

    /// What the markers of ``RedisStore/synchronize()`` start with: under the tracked entry
    /// prefix, with a namespace part (`%sync`) no escaped name can be.
    var synchronizationPrefix: String { entryPrefix + "%sync:" }

    /// The hash of namespace `name`: version, generation, policy.
    func namespace(_ name: String) -> String { namespacePrefix + Self.escape(name) }
    /// What the entry keys of `name` start with; the generation, `:` and the key follow.
    func entries(_ name: String) -> String { entryPrefix + Self.escape(name) + ":" }
    /// What the tag sets of `name` start with; the generation, `:` and the tag follow.
    func tags(_ name: String) -> String { prefix + "t:" + Self.escape(name) + ":" }
    /// The heartbeat hash of client `id`.
    func client(_ id: Int64) -> String { prefix + "c:\(id)" }
    /// Client `id`'s counters for namespace `name`.
    func statistics(client id: Int64, namespace name: String) -> String { prefix + "s:\(id):" + Self.escape(name) }
    /// What the counter hashes of client `id` start with.
    func statisticsPrefix(client id: Int64) -> String { prefix + "s:\(id):" }
    /// Every client's counters for namespace `name` (`nil`: every namespace together, as
    /// `%all`, which no escaped name can be) during the minute starting at `minute` (ms since
    /// the epoch, a multiple of 60,000).
    func minuteStatistics(namespace name: String?, minute: Int64) -> String {
        prefix + "m:" + (name.map(Self.escape) ?? "%all") + ":\(minute)"
    }

    /// What a key pushed by client-side tracking names.
    enum Pushed: Equatable {
        /// An entry of a namespace changed or went.
        case entry(namespace: String, key: String)
        /// A namespace's hash changed: cleared, or taken over by another version.
        case namespace(String)
        /// A marker of ``RedisStore/synchronize()`` with its token.
        case synchronization(String)
    }

    /// The entry or namespace a pushed key names; `nil` for other keys.
    func parse(_ key: String) -> Pushed? {
        if key.hasPrefix(synchronizationPrefix) {
            return .synchronization(String(key.dropFirst(synchronizationPrefix.count)))
        }
        if key.hasPrefix(entryPrefix) {
            let rest = key.dropFirst(entryPrefix.count)
            guard let nameEnd = rest.firstIndex(of: ":") else { return nil }
            let afterName = rest[rest.index(after: nameEnd)...]
            guard let generationEnd = afterName.firstIndex(of: ":") else { return nil }
            let name = Self.unescape(String(rest[..<nameEnd]))
            return .entry(namespace: name, key: String(afterName[afterName.index(after: generationEnd)...]))
        }
        if key.hasPrefix(namespacePrefix) {
            return .namespace(Self.unescape(String(key.dropFirst(namespacePrefix.count))))
        }
        return nil
    }

    /// `name` with `%` and `:` escaped.
    static func escape(_ name: String) -> String {
        name.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: ":", with: "%3A")
    }

    static func unescape(_ name: String) -> String {
        name.replacingOccurrences(of: "%3A", with: ":").replacingOccurrences(of: "%25", with: "%")
    }

    /// `text` as a `SCAN MATCH` pattern that matches only itself.
    static func glob(_ text: String) -> String {
        var pattern = ""
        for character in text {
            if "*?[]\\".contains(character) { pattern.append("\\") }
            pattern.append(character)
        }
        return pattern
    }
}
