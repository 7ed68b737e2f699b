import TerminalUI
import Synchronization

/// Where background work leaves its messages for the terminal's thread, and how much of it
/// is still under way.
final class Inbox: Sendable {
    private let messages = Mutex<[ConsoleMessage]>([])
    private let running = Atomic(0)

    /// Counts one more job under way.
    func started() {
        running.add(1, ordering: .sequentiallyConsistent)
    }

    /// Leaves a job's message and counts it done.
    func finished(_ message: ConsoleMessage?) {
        if let message { messages.withLock { $0.append(message) } }
        running.subtract(1, ordering: .sequentiallyConsistent)
    }

    /// Leaves a message of a job still under way.
    func post(_ message: ConsoleMessage) {
        messages.withLock { $0.append(message) }
    }

    /// The messages left so far, oldest first, removed from the inbox.
    func take() -> [ConsoleMessage] {
        messages.withLock { messages in
            defer { messages.removeAll() }
            return messages
        }
    }

    /// Whether jobs are under way or messages wait.
    var isBusy: Bool {
        running.load(ordering: .sequentiallyConsistent) > 0 || messages.withLock { !$0.isEmpty }
    }
}
