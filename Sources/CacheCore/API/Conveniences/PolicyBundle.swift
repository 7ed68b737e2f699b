/// A store-wide default policy with per-namespace overrides, set on a store at once with
/// ``StoreOptions/use(_:)``.
///
/// ```swift
/// let catalogue = PolicyBundle.longTerm
///     .overriding("colors", with: .longTerm.expiring(.never))
///     .overriding("themes", with: .longTerm.expiring(.days(30)))
/// var options = StoreOptions()
/// options.use(catalogue)
/// ```
public struct PolicyBundle: Sendable, Hashable {
    /// The policy of every namespace without an override.
    public var defaultPolicy: NamespacePolicy
    /// Policies by namespace name.
    public var overrides: [String: NamespacePolicy]

    /// A bundle of `defaultPolicy` and `overrides`.
    public init(default defaultPolicy: NamespacePolicy, overrides: [String: NamespacePolicy] = [:]) {
        self.defaultPolicy = defaultPolicy
        self.overrides = overrides
    }

    /// The policy `namespace` gets from this bundle.
    public func policy(for namespace: String) -> NamespacePolicy { overrides[namespace] ?? defaultPolicy }

    /// A copy in which `namespace` uses `policy`.
    public func overriding(_ namespace: String, with policy: NamespacePolicy) -> PolicyBundle {
        var copy = self
        copy.overrides[namespace] = policy
        return copy
    }

    /// Everything lives 24 hours (``NamespacePolicy/default``).
    public static let standard = PolicyBundle(default: .default)
    /// Everything lives 7 days (``NamespacePolicy/longTerm``).
    public static let longTerm = PolicyBundle(default: .longTerm)
    /// Everything lives 1 hour (``NamespacePolicy/shortTerm``).
    public static let shortTerm = PolicyBundle(default: .shortTerm)
    /// Everything lives 24 hours in the file with a memory tier in front (``NamespacePolicy/hybrid``).
    public static let hybrid = PolicyBundle(default: .hybrid)
    /// Nothing is stored or read (``NamespacePolicy/disabled``): caching turned off by
    /// configuration, every handle still usable.
    public static let disabled = PolicyBundle(default: .disabled)

    /// A copy in which the default and every override keep their entries in `tiers`
    /// (`PolicyBundle.longTerm.stored(in: .memoryAndDisk)`: every namespace hybrid).
    public func stored(in tiers: CacheTiers) -> PolicyBundle {
        modified { $0.tiers = tiers }
    }

    /// A copy in which the default and every override get `change`.
    public func modified(_ change: (inout NamespacePolicy) -> Void) -> PolicyBundle {
        var copy = self
        change(&copy.defaultPolicy)
        for name in copy.overrides.keys { change(&copy.overrides[name, default: copy.defaultPolicy]) }
        return copy
    }
}

extension StoreOptions {
    /// Takes the default policy and the per-namespace overrides from `bundle` (replacing
    /// ``defaultPolicy`` and ``policies``).
    public mutating func use(_ bundle: PolicyBundle) {
        defaultPolicy = bundle.defaultPolicy
        policies = bundle.overrides
    }
}

/// Named sizes for a namespace's memory tier.
public enum MemoryTierSize: Sendable, Hashable {
    /// 1,000 entries, at most 8 MiB.
    case small
    /// 10,000 entries, at most 64 MiB.
    case medium
    /// 100,000 entries, at most 512 MiB.
    case large
    /// Your own limits (`bytes: nil` for none).
    case custom(entries: Int, bytes: Int?)

    /// The entry limit.
    public var maxEntries: Int {
        switch self {
        case .small: 1_000
        case .medium: 10_000
        case .large: 100_000
        case .custom(let entries, _): entries
        }
    }

    /// The byte limit (encoded values plus keys), if any.
    public var maxBytes: Int? {
        switch self {
        case .small: 8 << 20
        case .medium: 64 << 20
        case .large: 512 << 20
        case .custom(_, let bytes): bytes
        }
    }
}

extension NamespacePolicy {
    /// A copy whose memory tier has the limits of `size` (it keeps its tiers: use a hybrid or
    /// memory-only policy for the size to matter).
    public func memory(_ size: MemoryTierSize) -> NamespacePolicy {
        var copy = self
        copy.memoryMaxEntries = size.maxEntries
        copy.memoryMaxBytes = size.maxBytes
        return copy
    }
}
