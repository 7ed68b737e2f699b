/// The key and command help.
public struct HelpView: Sendable {
    /// The first line shown.
    public internal(set) var scroll = 0
}
