/// A problem the console reports in its status line: one sentence.
public struct ConsoleError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The sentence.
    public let description: String

    /// An error saying `description`.
    public init(_ description: String) {
        self.description = description
    }
}
