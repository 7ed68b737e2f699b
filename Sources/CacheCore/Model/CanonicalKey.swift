import Foundation

/// A key type with a fixed, process-independent text form. Strings are used verbatim and
/// integers in decimal; any other `Codable` key becomes canonical JSON: sorted object keys,
/// sorted `Set` elements and sorted dictionary pairs, so equal keys have equal text in every
/// process, launch and machine.
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
    /// The canonical text of `key`: its ``CanonicalCacheKey`` form, else canonical JSON (see
    /// ``CanonicalKeyEncoder``; a bare JSON string or number is stored without quotes).
    @usableFromInline static func make<Key: Encodable>(_ key: Key, namespace: String) throws -> String {
        if let key = key as? any CanonicalCacheKey { return key.canonicalCacheKey }
        do {
            let json = try CanonicalKeyEncoder.json(key)
            if json.first == UInt8(ascii: "\"") {
                return try JSONDecoder().decode(String.self, from: json)
            }
            return String(decoding: json, as: UTF8.self)
        } catch {
            throw CacheError.encodingFailed(namespace: namespace, key: "\(key)", reason: "\(error)")
        }
    }
}
