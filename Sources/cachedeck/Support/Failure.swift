import ArgumentParser
import CacheCore

/// A failure to report as one line and exit 1.
struct Failure: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) { self.description = description }

    /// One line for any error (CacheCore's errors describe themselves in one line already).
    static func describe(_ error: any Error) -> String {
        "\(error)".split(whereSeparator: \.isNewline).joined(separator: " ")
    }
}
