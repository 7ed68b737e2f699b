import Foundation

/// A damaged file that opening moved aside before starting a fresh store.
public struct QuarantinedFile: Sendable, Equatable {
    /// Where the file was.
    public let originalPath: String
    /// Where it is now (`<file>.corrupt-<timestamp>`).
    public let movedTo: String
    /// Why it could not be used.
    public let reason: String
}
