/// A domain event with its parameters, for ``CacheStore/invalidate(event:)-(InvalidationEvent)``.
/// Declare your events as static functions, so call sites read like the domain:
///
/// ```swift
/// extension InvalidationEvent {
///     static func vendorUpdated(_ tenant: String, id: String? = nil) -> InvalidationEvent {
///         InvalidationEvent("vendorUpdated", parameters: ["tenant": tenant, "id": id])
///     }
/// }
/// rules.event("vendorUpdated", invalidates: [
///     .key(namespace: "vendors", key: "vendor_list_{tenant}"),
///     .key(namespace: "vendors", key: "vendor_detail_{tenant}_{id?}"),   // only with an id
/// ])
/// try store.invalidate(event: .vendorUpdated("acme"))
/// ```
public struct InvalidationEvent: Sendable, Hashable {
    /// The event's name, as declared with ``InvalidationRules/event(_:invalidates:)``.
    public let name: String
    /// The parameters the event's selectors are filled with.
    public let parameters: [String: String]

    /// An event; parameters whose value is `nil` are left out (optional parameters).
    public init(_ name: String, parameters: [String: String?] = [:]) {
        self.name = name
        self.parameters = parameters.compactMapValues { $0 }
    }
}

extension CacheStore {
    /// Runs `event` (see ``invalidate(event:parameters:)``).
    @discardableResult
    public func invalidate(event: InvalidationEvent) throws -> InvalidationResult {
        try invalidate(event: event.name, parameters: event.parameters)
    }
}

extension InvalidationSelector {
    /// One key of `namespace`, given as the typed key a ``Cache`` uses (stored as its
    /// canonical text). In rules and events, a string field of the key may hold a
    /// `{parameter}` placeholder: `.entry(GuestKey(tenant: "{tenant}", list: "stats"), in: "planner")`.
    public static func entry<Key: Encodable>(_ key: Key, in namespace: String) throws -> InvalidationSelector {
        .key(namespace: namespace, key: try CanonicalKey.make(key, namespace: namespace))
    }

    /// Keys of `namespace`, given as typed keys.
    public static func entries<Key: Encodable>(_ keys: [Key], in namespace: String) throws -> InvalidationSelector {
        .keys(namespace: namespace, keys: try keys.map { try CanonicalKey.make($0, namespace: namespace) })
    }
}

extension Cache {
    /// The selector of `key` in this namespace, for ``CacheStore/invalidate(_:)-(InvalidationSelector)`` and rules.
    public func selector(for key: Key) throws -> InvalidationSelector {
        .key(namespace: namespace, key: try canonicalKey(key))
    }

    /// Removes every key whose canonical text starts with `prefix`'s: for string and integer
    /// keys (and `RawRepresentable` string enums) the text itself, so `invalidate(prefixOf: "30")`
    /// on `String` keys removes `3001`, `3002`…
    @discardableResult
    public func invalidate(prefixOf prefix: Key) throws -> InvalidationResult {
        try invalidate(prefix: try canonicalKey(prefix))
    }
}
