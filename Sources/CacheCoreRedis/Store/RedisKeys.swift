import CacheCore
import Foundation

/// The names of a ``RedisStore``'s keys under its prefix; docs/REDIS.md is their contract.
///
/// Namespace names are escaped inside key names (`%` as `%25`, `:` as `%3A`), so the first
/// `:` after a namespace always ends it; keys and tags come last, verbatim.
///
/// On a Redis Cluster (`isClustered`) a namespace's part of its key names is a hash tag,
/// `{<name>}` (with `{` and `}` escaped too), so a namespace's hash, entries, tag sets and
/// retired generations share one slot and its scripts run on one node, while namespaces
/// spread over the nodes; the store-wide keys share the tag `{%store}`. A standalone server
/// keeps the untagged names it always had.
struct RedisKeys: Sendable {
    let prefix: String
    let isClustered: Bool

    init(prefix: String, isClustered: Bool = false) {
        self.prefix = prefix
        self.isClustered = isClustered
    }

    /// The tag of the store-wide keys on a cluster: no tagged namespace name can be `%store`.
    static let storeTag = "{%store}"

    /// A store-wide key: `name` under the prefix (and the store's tag on a cluster).
    func storeWide(_ name: String) -> String { prefix + (isClustered ? Self.storeTag : "") + name }

    /// Every namespace name ever opened.
    var namespaces: String { storeWide("namespaces") }
    /// Generations whose entries are still being unlinked, as `<ns>:<generation>`: one set
    /// for the store on a standalone server, one per namespace (in its slot) on a cluster.
    func retired(_ name: String) -> String { isClustered ? prefix + "r:" + segment(name) : storeWide("retired") }
    /// The counter client ids come from.
    var clientSequence: String { storeWide("clientseq") }
    /// Client ids scored by their last heartbeat.
    var clients: String { storeWide("clients") }
    /// What every entry key starts with (the near cache's tracked prefix).
    var entryPrefix: String { prefix + "e:" }
    /// What every namespace hash starts with (tracked too: a clear changes it).
    var namespacePrefix: String { prefix + "n:" }

    /// What the markers of ``RedisStore/synchronize()`` start with: under the tracked entry
    /// prefix, with a namespace part (`%sync`) no escaped name can be.
    var synchronizationPrefix: String { entryPrefix + "%sync:" }

    /// Namespace `name` as its key names spell it: escaped, and a hash tag on a cluster.
    func segment(_ name: String) -> String {
        guard isClustered else { return Self.escape(name) }
        var escaped = Self.escape(name)
        if Self.contains(escaped, "{", "}") {
            escaped = escaped.replacingOccurrences(of: "{", with: "%7B").replacingOccurrences(of: "}", with: "%7D")
        }
        return "{" + escaped + "}"
    }

    /// The namespace name a key's `segment(_:)` spells.
    func name(ofSegment segment: some StringProtocol) -> String {
        guard isClustered, segment.hasPrefix("{"), segment.hasSuffix("}") else { return Self.unescape(String(segment)) }
        let inner = segment.dropFirst().dropLast()
        return Self.unescape(inner.replacingOccurrences(of: "%7B", with: "{").replacingOccurrences(of: "%7D", with: "}"))
    }

    /// The hash of namespace `name`: version, generation, policy.
    func namespace(_ name: String) -> String { namespacePrefix + segment(name) }
    /// What the entry keys of `name` start with; the generation, `:` and the key follow.
    func entries(_ name: String) -> String { entryPrefix + segment(name) + ":" }
    /// What the tag sets of `name` start with; the generation, `:` and the tag follow.
    func tags(_ name: String) -> String { prefix + "t:" + segment(name) + ":" }
    /// The heartbeat hash of client `id`.
    func client(_ id: Int64) -> String { storeWide("c:\(id)") }
    /// Client `id`'s counters for namespace `name`.
    func statistics(client id: Int64, namespace name: String) -> String {
        statisticsPrefix(client: id) + Self.escape(name)
    }
    /// What the counter hashes of client `id` start with.
    func statisticsPrefix(client id: Int64) -> String { storeWide("s:\(id):") }
    /// Every client's counters for namespace `name` (`nil`: every namespace together, as
    /// `%all`, which no escaped name can be) during the minute starting at `minute` (ms since
    /// the epoch, a multiple of 60,000).
    func minuteStatistics(namespace name: String?, minute: Int64) -> String {
        storeWide("m:" + (name.map(Self.escape) ?? "%all") + ":\(minute)")
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
            let name = self.name(ofSegment: rest[..<nameEnd])
            return .entry(namespace: name, key: String(afterName[afterName.index(after: generationEnd)...]))
        }
        if key.hasPrefix(namespacePrefix) {
            return .namespace(name(ofSegment: key.dropFirst(namespacePrefix.count)))
        }
        return nil
    }

    /// `name` with `%` and `:` escaped.
    /// (Names without them, the usual case, are returned as they are: every call names keys,
    /// and Foundation's replacing costs more than the rest of a call's client work.)
    static func escape(_ name: String) -> String {
        guard contains(name, "%", ":") else { return name }
        return name.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: ":", with: "%3A")
    }

    static func unescape(_ name: String) -> String {
        guard contains(name, "%") else { return name }
        return name.replacingOccurrences(of: "%3A", with: ":").replacingOccurrences(of: "%25", with: "%")
    }

    /// Whether `text` holds any of the ASCII `characters`.
    private static func contains(_ text: String, _ characters: Unicode.Scalar...) -> Bool {
        let bytes = characters.map { UInt8(ascii: $0) }
        return text.utf8.contains { bytes.contains($0) }
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
