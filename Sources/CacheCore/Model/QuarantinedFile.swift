import Foundation

/// A damaged file that opening moved aside before starting a fresh store.
public struct QuarantinedFile: Sendable, Equatable {
    /// Where the file was.
    public let originalPath: String
    /// Where it is now (`<file>.corrupt-<timestamp>`).
    public let movedTo: String
    /// Why it could not be used.
    public let reason: String
    /// The entries copied from it into the fresh file, when its pages were damaged but its
    /// header read (`nil`: it could not be read at all, so the fresh file starts empty).
    public internal(set) var salvagedEntries: Int? = nil
}
