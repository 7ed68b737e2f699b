import TerminalUI
import Synchronization

/// Asks a running action to stop after the batch it is on (what it removed until then stays
/// undoable). The console holds it while the action runs; the action's progress handler
/// checks it on a background thread.
package final class ActionStop: Sendable, Hashable {
    private let flag = Atomic(false)

    package init() {}

    /// Asks the action to stop.
    package func stop() {
        flag.store(true, ordering: .relaxed)
    }

    /// Whether it was asked to.
    package var isStopped: Bool { flag.load(ordering: .relaxed) }

    package static func == (lhs: ActionStop, rhs: ActionStop) -> Bool { lhs === rhs }

    package func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}
