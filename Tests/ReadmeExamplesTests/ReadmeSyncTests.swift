import Foundation
import Testing

/// The README's examples compile because `ReadmeExamples.swift` holds them; this keeps the
/// two in step: every line of every ```swift block of the README appears there, in order.
@Suite struct ReadmeSyncTests {
    private static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()

    @Test func everyReadmeExampleIsCompiledVerbatim() throws {
        let readme = try String(
            contentsOf: Self.folder.appendingPathComponent("../../README.md").standardized, encoding: .utf8)
        let examples = try String(
            contentsOf: Self.folder.appendingPathComponent("ReadmeExamples.swift"), encoding: .utf8)
        let compiled = examples.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        let blocks = readme.components(separatedBy: "```swift\n").dropFirst().map {
            $0.components(separatedBy: "```")[0]
        }
        #expect(blocks.count >= 6)
        for (index, block) in blocks.enumerated() {
            var position = compiled.startIndex
            for line in block.split(separator: "\n").map({ $0.trimmingCharacters(in: .whitespaces) })
            where !line.isEmpty {
                guard let found = compiled[position...].firstIndex(of: line) else {
                    Issue.record("README block \(index + 1): '\(line)' is not in ReadmeExamples.swift (in order)")
                    break
                }
                position = found + 1
            }
        }
    }
}
