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
        encoder.outputFormatting = formatting
        encoder.dateEncodingStrategy = .millisecondsSince1970
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}
