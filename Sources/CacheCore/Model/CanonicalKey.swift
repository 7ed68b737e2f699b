import Foundation

/// A key type with a fixed, process-independent text form. Strings are used as they are (in
/// Unicode Normalization Form C, see ``CanonicalKey/normalized(_:)``) and integers in decimal; any other `Codable` key becomes canonical JSON: sorted object keys,
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

@usableFromInline package enum CanonicalKey {
    /// The canonical text of `key`: its ``CanonicalCacheKey`` form, else canonical JSON (see
    /// ``CanonicalKeyEncoder``; a bare JSON string or number is stored without quotes), in
    /// Unicode Normalization Form C.
    @usableFromInline static func make<Key: Encodable>(_ key: Key, namespace: String) throws -> String {
        if let key = key as? any CanonicalCacheKey { return normalized(key.canonicalCacheKey) }
        do {
            let json = try CanonicalKeyEncoder.json(key)
            if json.first == UInt8(ascii: "\"") {
                return normalized(try JSONDecoder().decode(String.self, from: json))
            }
            return normalized(String(decoding: json, as: UTF8.self))
        } catch {
            throw CacheError.encodingFailed(namespace: namespace, key: "\(key)", reason: "\(error)")
        }
    }
}

extension CanonicalKey {
    /// `text` in Unicode Normalization Form C: the one spelling of all the texts Swift's
    /// `String ==` holds equal ("café" with U+00E9, or with "e" and U+0301), so a key is one
    /// entry in memory (where `==` decides), in the file and on Redis (where bytes decide),
    /// in every process. ASCII, the common case, is returned as it is.
    @inlinable package static func normalized(_ text: String) -> String {
        text.utf8.allSatisfy { $0 < 0x80 } ? text : composed(text)
    }

    @usableFromInline static func composed(_ text: String) -> String {
        text.precomposedStringWithCanonicalMapping
    }

    /// Whether `bytes` are valid UTF-8 text that is not in Normalization Form C: its NFC form
    /// then, else `nil` (for keys already normal, and for bytes that are not text at all).
    static func renormalized(_ bytes: [UInt8]) -> String? {
        guard let text = String(validating: bytes, as: UTF8.self) else { return nil }
        let normal = composed(text)
        return normal.utf8.elementsEqual(bytes) ? nil : normal
    }
}
