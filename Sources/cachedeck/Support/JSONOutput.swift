import Foundation

/// JSON on stdout: sorted keys, pretty-printed, times as integer milliseconds.
enum JSONOutput {
    static func print(_ value: some Encodable) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .millisecondsSince1970
        Swift.print(String(decoding: try encoder.encode(value), as: UTF8.self))
    }
}
