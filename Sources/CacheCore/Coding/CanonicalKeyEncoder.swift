import Foundation

/// Turns any `Encodable` key into canonical JSON: the text depends on the key's value only,
/// never on hash order, field order, process or machine.
///
/// It is JSON with sorted object keys (exactly what `JSONEncoder` with `.sortedKeys` wrote
/// before, for keys without sets) plus two rules `JSONEncoder` lacks: the elements of a `Set`
/// and the pairs of a `Dictionary` whose keys are not strings or integers (both encoded in
/// hash order by their own `Codable` conformance) are sorted by their canonical text, and
/// `-0.0` is written as `0` (they are equal keys). Dates are seconds since 2001-01-01, as
/// `Date`'s own `Codable` form; `Data` is Base64 text. NaN and infinities cannot be keys.
enum CanonicalKeyEncoder {
    /// The canonical JSON of `key`.
    static func json<Key: Encodable>(_ key: Key) throws -> Data {
        let slot = Slot()
        try encode(key, into: slot, codingPath: [])
        return try render(slot.resolve())
    }

    static func encode<T: Encodable>(_ value: T, into slot: Slot, codingPath: [any CodingKey]) throws {
        switch value {
        case let data as Data: slot.content = .node(.leaf(data))
        case let url as URL: slot.content = .node(.leaf(url))
        case let decimal as Decimal: slot.content = .node(.leaf(decimal))
        default:
            try value.encode(to: TreeEncoder(slot: slot, codingPath: codingPath))
            if value is any UnorderedElements {
                try slot.sortElements()
            } else if value is any UnorderedPairs {
                try slot.sortPairs()
            }
        }
    }

    private static let renderer: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    static func render(_ node: Node) throws -> Data { try renderer.encode(node) }

    /// A JSON value whose scalars keep their Swift type, so `JSONEncoder` renders them as it
    /// always has.
    indirect enum Node: Encodable {
        case null
        case bool(Bool)
        case int(Int64)
        case uint(UInt64)
        case double(Double)
        case float(Float)
        case string(String)
        /// A value `JSONEncoder` renders by its own rules (`Data`, `URL`, `Decimal`).
        case leaf(any Encodable)
        case array([Node])
        case object([String: Node])

        func encode(to encoder: any Encoder) throws {
            switch self {
            case .array(let elements):
                var container = encoder.unkeyedContainer()
                for element in elements { try container.encode(element) }
            case .object(let members):
                var container = encoder.container(keyedBy: NameKey.self)
                for (name, member) in members { try container.encode(member, forKey: NameKey(name)) }
            default:
                var container = encoder.singleValueContainer()
                switch self {
                case .null: try container.encodeNil()
                case .bool(let value): try container.encode(value)
                case .int(let value): try container.encode(value)
                case .uint(let value): try container.encode(value)
                case .double(let value): try container.encode(value)
                case .float(let value): try container.encode(value)
                case .string(let value): try container.encode(value)
                case .leaf(let value): try container.encode(value)
                case .array, .object: break
                }
            }
        }
    }

    /// Where one value of the tree is being built.
    final class Slot {
        enum Content {
            case unset
            case node(Node)
            case array([Slot])
            case object([String: Slot])
        }

        var content = Content.unset

        func resolve() throws -> Node {
            switch content {
            case .unset: .object([:])
            case .node(let node): node
            case .array(let slots): .array(try slots.map { try $0.resolve() })
            case .object(let slots): .object(try slots.mapValues { try $0.resolve() })
            }
        }

        /// Sorts a set's elements by their canonical text.
        func sortElements() throws {
            guard case .array(let slots) = content else { return }
            let keyed = try slots.map { (text: try render($0.resolve()), slot: $0) }
            content = .array(keyed.sorted { $0.text.lexicographicallyPrecedes($1.text) }.map(\.slot))
        }

        /// Sorts a dictionary encoded as `[key, value, key, value, …]` by its keys' canonical text.
        func sortPairs() throws {
            guard case .array(let slots) = content, slots.count % 2 == 0 else { return }
            let pairs = try stride(from: 0, to: slots.count, by: 2).map { index in
                (text: try render(slots[index].resolve()), key: slots[index], value: slots[index + 1])
            }
            content = .array(
                pairs.sorted { $0.text.lexicographicallyPrecedes($1.text) }.flatMap { [$0.key, $0.value] })
        }
    }

    struct NameKey: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(_ name: String) { stringValue = name }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { stringValue = String(intValue) }
    }
}

/// Collections whose `Codable` form lists elements in hash order.
protocol UnorderedElements {}
extension Set: UnorderedElements {}

/// Dictionaries: with keys other than strings and integers their `Codable` form is a list of
/// key-value pairs in hash order.
protocol UnorderedPairs {}
extension Dictionary: UnorderedPairs {}

/// The `Encoder` that fills a ``CanonicalKeyEncoder/Slot``.
private struct TreeEncoder: Encoder {
    typealias Slot = CanonicalKeyEncoder.Slot
    let slot: Slot
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Name: CodingKey>(keyedBy type: Name.Type) -> KeyedEncodingContainer<Name> {
        if case .object = slot.content {} else { slot.content = .object([:]) }
        return KeyedEncodingContainer(KeyedContainer<Name>(slot: slot, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if case .array = slot.content {} else { slot.content = .array([]) }
        return UnkeyedContainer(slot: slot, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleValueContainer(slot: slot, codingPath: codingPath)
    }
}

private struct KeyedContainer<Name: CodingKey>: KeyedEncodingContainerProtocol {
    typealias Slot = CanonicalKeyEncoder.Slot
    let slot: Slot
    let codingPath: [any CodingKey]

    private func child(_ key: any CodingKey) -> Slot {
        let child = Slot()
        if case .object(var members) = slot.content {
            members[key.stringValue] = child
            slot.content = .object(members)
        }
        return child
    }

    mutating func encodeNil(forKey key: Name) throws { child(key).content = .node(.null) }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Name) throws {
        try CanonicalKeyEncoder.encode(value, into: child(key), codingPath: codingPath + [key])
    }

    mutating func nestedContainer<Nested: CodingKey>(
        keyedBy keyType: Nested.Type, forKey key: Name
    ) -> KeyedEncodingContainer<Nested> {
        TreeEncoder(slot: child(key), codingPath: codingPath + [key]).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Name) -> any UnkeyedEncodingContainer {
        TreeEncoder(slot: child(key), codingPath: codingPath + [key]).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        let key = CanonicalKeyEncoder.NameKey("super")
        return TreeEncoder(slot: child(key), codingPath: codingPath + [key])
    }

    mutating func superEncoder(forKey key: Name) -> any Encoder {
        TreeEncoder(slot: child(key), codingPath: codingPath + [key])
    }
}

private struct UnkeyedContainer: UnkeyedEncodingContainer {
    typealias Slot = CanonicalKeyEncoder.Slot
    let slot: Slot
    let codingPath: [any CodingKey]

    var count: Int {
        if case .array(let elements) = slot.content { return elements.count }
        return 0
    }

    private func next() -> Slot {
        let child = Slot()
        if case .array(var elements) = slot.content {
            elements.append(child)
            slot.content = .array(elements)
        }
        return child
    }

    private var indexKey: any CodingKey { CanonicalKeyEncoder.NameKey("\(count)") }

    mutating func encodeNil() throws { next().content = .node(.null) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        let path = codingPath + [indexKey]
        try CanonicalKeyEncoder.encode(value, into: next(), codingPath: path)
    }

    mutating func nestedContainer<Nested: CodingKey>(keyedBy keyType: Nested.Type) -> KeyedEncodingContainer<Nested> {
        let path = codingPath + [indexKey]
        return TreeEncoder(slot: next(), codingPath: path).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let path = codingPath + [indexKey]
        return TreeEncoder(slot: next(), codingPath: path).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        let path = codingPath + [indexKey]
        return TreeEncoder(slot: next(), codingPath: path)
    }
}

private struct SingleValueContainer: SingleValueEncodingContainer {
    typealias Slot = CanonicalKeyEncoder.Slot
    let slot: Slot
    let codingPath: [any CodingKey]

    private func set(_ node: CanonicalKeyEncoder.Node) { slot.content = .node(node) }

    mutating func encodeNil() throws { set(.null) }
    mutating func encode(_ value: Bool) throws { set(.bool(value)) }
    mutating func encode(_ value: String) throws { set(.string(value)) }
    mutating func encode(_ value: Double) throws {
        guard value.isFinite else { throw nonFinite(value) }
        set(.double(value == 0 ? 0 : value))
    }
    mutating func encode(_ value: Float) throws {
        guard value.isFinite else { throw nonFinite(value) }
        set(.float(value == 0 ? 0 : value))
    }
    mutating func encode(_ value: Int) throws { set(.int(Int64(value))) }
    mutating func encode(_ value: Int8) throws { set(.int(Int64(value))) }
    mutating func encode(_ value: Int16) throws { set(.int(Int64(value))) }
    mutating func encode(_ value: Int32) throws { set(.int(Int64(value))) }
    mutating func encode(_ value: Int64) throws { set(.int(value)) }
    mutating func encode(_ value: UInt) throws { set(.uint(UInt64(value))) }
    mutating func encode(_ value: UInt8) throws { set(.uint(UInt64(value))) }
    mutating func encode(_ value: UInt16) throws { set(.uint(UInt64(value))) }
    mutating func encode(_ value: UInt32) throws { set(.uint(UInt64(value))) }
    mutating func encode(_ value: UInt64) throws { set(.uint(value)) }
    mutating func encode<T: Encodable>(_ value: T) throws {
        try CanonicalKeyEncoder.encode(value, into: slot, codingPath: codingPath)
    }

    private func nonFinite(_ value: Any) -> EncodingError {
        EncodingError.invalidValue(
            value, EncodingError.Context(codingPath: codingPath, debugDescription: "\(value) cannot be part of a key"))
    }
}
