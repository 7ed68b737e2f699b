import Foundation
import Testing

/// The examples of the README and the guides in docs/ compile because `ReadmeExamples.swift`
/// holds them; this keeps them in step: every line of every ```swift block of those files
/// appears there, in order. A block that starts with `// Package.swift` is a manifest excerpt,
/// not app code, and is skipped.
@Suite struct ReadmeSyncTests {
    private static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../..").standardized

    /// README.md and every Markdown file in docs/.
    private static func documents() throws -> [URL] {
        let docs = root.appendingPathComponent("docs")
        let guides = try FileManager.default.contentsOfDirectory(at: docs, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "md" }
        return [root.appendingPathComponent("README.md")] + guides.sorted { $0.path < $1.path }
    }

    @Test func everyDocumentedExampleIsCompiledVerbatim() throws {
        let examples = try String(
            contentsOf: Self.root.appendingPathComponent("Tests/ReadmeExamplesTests/ReadmeExamples.swift"),
            encoding: .utf8)
        let compiled = examples.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        var checked = 0
        for document in try Self.documents() {
            let text = try String(contentsOf: document, encoding: .utf8)
            let blocks = text.components(separatedBy: "```swift\n").dropFirst()
                .map { $0.components(separatedBy: "```")[0] }
                .filter { !$0.hasPrefix("// Package.swift") }
            for (index, block) in blocks.enumerated() {
                checked += 1
                var position = compiled.startIndex
                for line in block.split(separator: "\n").map({ $0.trimmingCharacters(in: .whitespaces) })
                where !line.isEmpty {
                    guard let found = compiled[position...].firstIndex(of: line) else {
                        Issue.record(
                            "\(document.lastPathComponent) block \(index + 1): '\(line)' is not in ReadmeExamples.swift (in order)")
                        break
                    }
                    position = found + 1
                }
            }
        }
        #expect(checked >= 6)
    }
}
