/// A type that knows where it lives in a cache: its namespace and its key.
///
/// ```swift
/// struct Color: CacheEntity {
///     static let cacheNamespace = "colors"
///     let id: Int
///     let name: String
///     var cacheKey: Int { id }                 // colors/10
/// }
/// struct PartColor: CacheEntity {
///     static let cacheNamespace = "part_colors"
///     let part: String, color: Int
///     var cacheKey: String { "\(part)_\(color)" }  // part_colors/3001_5
/// }
/// let colors = try store.entities(Color.self)
/// try colors.put(Color(id: 10, name: "Bright Green"))
/// ```
public protocol CacheEntity: Codable, Sendable {
    /// The key type; its canonical text is the stored key.
    associatedtype CacheKey: Codable & Sendable
    /// The namespace every value of this type lives in.
    static var cacheNamespace: String { get }
    /// The policy to use when ``CacheStoring/entities(_:policy:)`` is given none; `nil` means
    /// the store's default for the namespace.
    static var cachePolicy: NamespacePolicy? { get }
    /// This value's key.
    var cacheKey: CacheKey { get }
}

extension CacheEntity {
    /// No policy of its own: the store's default applies.
    public static var cachePolicy: NamespacePolicy? { nil }
}
