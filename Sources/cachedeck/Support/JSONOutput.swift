import Foundation

/// JSON on stdout: sorted keys, times as integer milliseconds; pretty-printed, or one object
/// per line for streams.
enum JSONOutput {
    static func print(_ value: some Encodable) throws {
        Swift.print(try text(value, [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]))
    }

    /// Writes `value` compactly on one line (JSON Lines), unbuffered.
    static func printLine(_ value: some Encodable) throws {
        FileHandle.standardOutput.write(Data((try text(value, [.sortedKeys, .withoutEscapingSlashes]) + "\n").utf8))
    }

    private static func text(_ value: some Encodable, _ formatting: JSONEncoder.OutputFormatting) throws -> String {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .millisecondsSince1970
        let object = try JSONSerialization.jsonObject(with: try encoder.encode(value), options: .fragmentsAllowed)
        var options: JSONSerialization.WritingOptions = [.fragmentsAllowed]
        if formatting.contains(.prettyPrinted) { options.insert(.prettyPrinted) }
        if formatting.contains(.sortedKeys) { options.insert(.sortedKeys) }
        if formatting.contains(.withoutEscapingSlashes) { options.insert(.withoutEscapingSlashes) }
        return String(
            decoding: try JSONSerialization.data(withJSONObject: named(object), options: options), as: UTF8.self)
    }

    /// What an unlabelled enum payload (`_0`, as Swift encodes `invalidate(selector)`) is
    /// called, by the case it belongs to.
    private static let payloadNames = ["invalidate": "selector", "tag": "tag", "namespace": "name"]

    /// `object` with every `_0` field renamed after its case (``payloadNames``), so action
    /// targets read `{"invalidate": {"selector": {"tag": {"tag": "t"}}}}`.
    static func named(_ object: Any, case name: String? = nil) -> Any {
        if let array = object as? [Any] { return array.map { named($0) } }
        guard let dictionary = object as? [String: Any] else { return object }
        var result: [String: Any] = [:]
        for (key, value) in dictionary {
            let renamed = key == "_0" ? name.flatMap { payloadNames[$0] } ?? "value" : key
            result[renamed] = named(value, case: key)
        }
        return result
    }
}
