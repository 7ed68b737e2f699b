import CacheCore

/// What sits over the view and gets the keys first.
public enum Overlay: Sendable {
    /// The `/` filter of an Entries view.
    case filter(TextField)
    /// The `:` command line, with the completions of the last Tab.
    case command(TextField, completions: [String])
    /// A measured action waiting for the operator's answer.
    case confirm(ConfirmDialog)
}

/// The confirmation of a destructive action: the preview and the answer typed so far. The
/// default answer (Enter on an empty field) is No.
public struct ConfirmDialog: Sendable {
    /// The measured action.
    public let pending: PendingAction
    /// The answer typed so far (the name, for a clear).
    public internal(set) var answer: TextField
}
