import Foundation

/// A key type with a fixed, process-independent text form. Strings are used verbatim and
/// integers in decimal; any other `Codable` key becomes sorted-key JSON.
public protocol CanonicalCacheKey {
    /// The stable text stored in the cache file.
    var canonicalCacheKey: String { get }
}

extension String: CanonicalCacheKey {
    /// The string itself.
    public var canonicalCacheKey: String { self }
}

extension Substring: CanonicalCacheKey {
    /// The substring's text.
    public var canonicalCacheKey: String { String(self) }
}

extension CanonicalCacheKey where Self: BinaryInteger {
    /// Decimal digits.
    public var canonicalCacheKey: String { String(self) }
}

extension Int: CanonicalCacheKey {}
extension Int64: CanonicalCacheKey {}
extension Int32: CanonicalCacheKey {}
extension UInt: CanonicalCacheKey {}
extension UInt64: CanonicalCacheKey {}
extension UInt32: CanonicalCacheKey {}

extension UUID: CanonicalCacheKey {
    /// The upper-case UUID string.
    public var canonicalCacheKey: String { uuidString }
}

@usableFromInline enum CanonicalKey {
    /// The canonical text of `key`: its ``CanonicalCacheKey`` form, else sorted-key JSON
    /// (a bare JSON string or number is stored without quotes).
    /// Sorted keys make struct keys independent of field order.
    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    @usableFromInline static func make<Key: Encodable>(_ key: Key, namespace: String) throws -> String {
        if let key = key as? any CanonicalCacheKey { return key.canonicalCacheKey }
        do {
            let json = try encoder.encode(key)
            if json.first == UInt8(ascii: "\"") {
                return try JSONDecoder().decode(String.self, from: json)
            }
            return String(decoding: json, as: UTF8.self)
        } catch {
            throw CacheError.encodingFailed(namespace: namespace, key: "\(key)", reason: "\(error)")
        }
    }
}
