import ArgumentParser
import CacheCore

/// A failure to report as one line and exit 1.
struct Failure: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) { self.description = description }

    /// One line for any error: CacheCore's own descriptions, else the error's text.
    static func describe(_ error: any Error) -> String {
        let text = String(describing: error)
        return text.split(whereSeparator: \.isNewline).joined(separator: " ")
    }
}
