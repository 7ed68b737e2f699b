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
        return escapingInvisibles(
            String(
                decoding: try JSONSerialization.data(withJSONObject: named(object), options: options), as: UTF8.self))
    }

    /// What an unlabelled enum payload (`_0`, as Swift encodes `invalidate(selector)`) is
    /// called, by the case it belongs to.
    private static let payloadNames = ["invalidate": "selector", "deleteKeys": "selector", "tag": "tag", "namespace": "name"]

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

    /// `json` with every scalar a terminal acts on or that reorders text written as `\uXXXX`:
    /// DEL, the C1 controls (U+0080–U+009F: U+009B is a CSI), line and paragraph separators,
    /// and the bidi marks, embeddings, overrides and isolates. JSONEncoder escapes only C0.
    /// Such scalars can only occur inside strings, where the escape means the same.
    static func escapingInvisibles(_ json: String) -> String {
        guard json.unicodeScalars.contains(where: isInvisible) else { return json }
        var result = ""
        for scalar in json.unicodeScalars {
            if isInvisible(scalar) {
                result +=
                    "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count)
                    + String(scalar.value, radix: 16, uppercase: true)
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    private static func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x7F...0x9F, 0x061C, 0x200E, 0x200F, 0x2028...0x202E, 0x2066...0x2069: true
        default: false
        }
    }
}
