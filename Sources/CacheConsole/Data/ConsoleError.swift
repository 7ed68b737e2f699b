import TerminalUI
/// A problem the console reports in its status line: one sentence.
package struct ConsoleError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The sentence.
    package let description: String

    /// An error saying `description`.
    package init(_ description: String) {
        self.description = description
    }
}
