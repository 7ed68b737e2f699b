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

/// Stores values as JSON (sorted keys), so that a value reads back from the file equal to
/// the value written (and to the memory tier's copy):
///
/// - `Date`s are UTC ISO 8601 text with as many fractional digits as an exact read needs
///   (`2026-11-23T21:10:16.25Z`); whole-second text from earlier versions still reads.
/// - `Double` and `Float` keep every bit of finite values (including `-0.0`, the smallest
///   subnormal and the largest finite value); infinities and NaN are stored as the strings
///   `"Infinity"`, `"-Infinity"` and `"NaN"` (a NaN reads back as a quiet NaN, its payload is
///   not kept).
/// - `Data` is Base64 text; `nil` optionals are left out and read back as `nil`.
///
/// Types whose own `Codable` conformance drops information read back as that conformance
/// decodes them; the memory tier keeps the value as written.
public struct JSONValueCoder<Value: Codable>: CacheValueCoder {
    private let encoder: JSONEncoder
    private let decoder: JSONDecoder

    /// Creates a JSON coder.
    public init() {
        encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom(ExactDateText.encode)
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: "Infinity", negativeInfinity: "-Infinity", nan: "NaN")
        decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom(ExactDateText.decode)
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(
            positiveInfinity: "Infinity", negativeInfinity: "-Infinity", nan: "NaN")
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
