import Foundation

/// Turns values into stored bytes and back. JSON is the default so the console can show
/// values; plug in another coder for another encoding.
public protocol CacheValueCoder<Value>: Sendable {
    /// The type this coder stores.
    associatedtype Value
    /// The bytes to store for `value`.
    func encode(_ value: Value) throws -> Data
    /// The value the stored `data` holds.
    func decode(_ data: Data) throws -> Value
}

/// Stores values as JSON (sorted keys, ISO-8601 dates).
public struct JSONValueCoder<Value: Codable>: CacheValueCoder {
    private let encoder: JSONEncoder
    private let decoder: JSONDecoder

    /// Creates a JSON coder.
    public init() {
        encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
    }

    /// Encodes `value` as JSON.
    public func encode(_ value: Value) throws -> Data { try encoder.encode(value) }

    /// Decodes JSON `data`.
    public func decode(_ data: Data) throws -> Value { try decoder.decode(Value.self, from: data) }
}

/// Stores `Data` values as they are: the raw bytes path.
public struct RawDataCoder: CacheValueCoder {
    /// Creates the identity coder.
    public init() {}

    /// The bytes themselves.
    public func encode(_ value: Data) throws -> Data { value }

    /// The bytes themselves.
    public func decode(_ data: Data) throws -> Data { data }
}
