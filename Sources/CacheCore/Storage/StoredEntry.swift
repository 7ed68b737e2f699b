import Foundation

/// One row of `entries` as a read sees it.
struct StoredEntry: Sendable {
    let id: Int64
    let value: Data
    let createdAt: Int64
    let expiresAt: Int64?
    let staleUntil: Int64?
    let version: String
    let tagsJSON: String?

    /// The entry's tags (decoded from the row's JSON array).
    var tags: [String] {
        guard let tagsJSON else { return [] }
        return (try? JSONDecoder().decode([String].self, from: Data(tagsJSON.utf8))) ?? []
    }

    func isExpired(at now: Int64) -> Bool { expiresAt.map { now >= $0 } ?? false }

    /// Past its stale window: no read may return it and it may be deleted.
    func isPurgeable(at now: Int64) -> Bool { staleUntil.map { now >= $0 } ?? false }
}

/// A namespace as a handle knows it: its row id (nil when a read-only store has never seen
/// it) and the policy in force.
@usableFromInline struct NamespaceRecord: Sendable {
    let id: Int64?
    let name: String
    @usableFromInline let policy: NamespacePolicy
}

/// What a write stores besides the key and value.
struct WriteAttributes: Sendable {
    let expiresAt: Int64?
    let staleUntil: Int64?
    let tagsJSON: String?
    let tags: [String]

    init(expiration: Expiration, policy: NamespacePolicy, tags: [String], now: Int64) {
        expiresAt = expiration.expiresAt(now: now)
        staleUntil = expiresAt.map { $0 + policy.staleWindow.milliseconds }
        if tags.isEmpty {
            tagsJSON = nil
            self.tags = []
        } else {
            let unique = Array(Set(tags)).sorted()
            self.tags = unique
            tagsJSON = String(decoding: (try? JSONEncoder().encode(unique)) ?? Data("[]".utf8), as: UTF8.self)
        }
    }
}

extension WriteAttributes {
    func isExpired(at now: Int64) -> Bool { expiresAt.map { now >= $0 } ?? false }

    func isPurgeable(at now: Int64) -> Bool { staleUntil.map { now >= $0 } ?? false }
}
