import CacheCore

/// The policies where the demo differs by store. A file caps each mailbox at its newest 1,000
/// messages; Redis refuses per-namespace caps (it evicts by its own `maxmemory-policy`, see
/// docs/REDIS.md), so on Redis mail expires 15 minutes after it arrives instead (with no stale
/// window, so the simulated app's mail stays bounded: about 100k messages at 2,000 ops/s).
struct DemoPolicies: Sendable {
    /// The policy of every `mailbox_N` namespace.
    let mailbox: NamespacePolicy
    /// The most messages a mailbox keeps, if the store caps it.
    let mailboxCap: Int?
    /// What the demo prints about the difference (nil: none).
    let note: String?

    /// A cache file: mailboxes keep their newest 1,000 messages.
    static let file = DemoPolicies(
        mailbox: NamespacePolicy(expiration: .never).keepingNewest(1000), mailboxCap: 1000, note: nil)

    /// Redis: no per-namespace cap, so mail expires (Redis deletes it itself).
    static let redis = DemoPolicies(
        mailbox: NamespacePolicy(expiration: .after(.seconds(15 * 60)), staleWindow: .zero), mailboxCap: nil,
        note:
            "on Redis, mail expires 15 minutes after it arrives: Redis refuses a per-namespace cap "
            + "(the file demo keeps each mailbox's newest 1,000 messages)")
}
