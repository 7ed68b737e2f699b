import Foundation

/// One row of `entries` as a read sees it.
package struct StoredEntry: Sendable {
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

    /// The memberwise initializer, for the package's other targets.
    package init(
        id: Int64, value: Data, createdAt: Int64, expiresAt: Int64?, staleUntil: Int64?, version: String,
        tagsJSON: String?
    ) {
        self.id = id
        self.value = value
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.staleUntil = staleUntil
        self.version = version
        self.tagsJSON = tagsJSON
    }
}

/// A namespace as a handle knows it: its row id (nil when a read-only store has never seen
/// it) and the policy in force.
@usableFromInline package struct NamespaceRecord: Sendable {
    let id: Int64?
    package let name: String
    @usableFromInline package let policy: NamespacePolicy

    /// The memberwise initializer, for the package's other targets.
    package init(id: Int64?, name: String, policy: NamespacePolicy) {
        self.id = id
        self.name = name
        self.policy = policy
    }
}

/// What a write stores besides the key and value.
package struct WriteAttributes: Sendable {
    package let expiresAt: Int64?
    package let staleUntil: Int64?
    package let tagsJSON: String?
    package let tags: [String]
    /// The app-given sort value (format 7), if any.
    package let sortValue: Int64?

    init(expiration: Expiration, policy: NamespacePolicy, tags: [String], sortValue: Int64? = nil, now: Int64) {
        self.sortValue = sortValue
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
    /// Attributes given as they are (an import writes back what an export read).
    init(expiresAt: Int64?, staleUntil: Int64?, tags: [String]) {
        self.expiresAt = expiresAt
        self.staleUntil = staleUntil
        sortValue = nil
        self.tags = Array(Set(tags)).sorted()
        tagsJSON =
            self.tags.isEmpty
            ? nil : String(decoding: (try? JSONEncoder().encode(self.tags)) ?? Data("[]".utf8), as: UTF8.self)
    }

    func isExpired(at now: Int64) -> Bool { expiresAt.map { now >= $0 } ?? false }

    func isPurgeable(at now: Int64) -> Bool { staleUntil.map { now >= $0 } ?? false }
}
