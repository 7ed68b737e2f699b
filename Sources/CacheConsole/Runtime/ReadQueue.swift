import TerminalUI
import Dispatch
import Synchronization

/// The console's reads, run one at a time on a background queue in the order asked. When a
/// read's turn comes, what the console no longer wants of it is dropped first (pages of an
/// order or filter since changed): typing a filter over a large namespace costs the query
/// under way and the last one, not a query per keystroke.
final class ReadQueue: Sendable {
    private let queue = DispatchQueue(label: "cachedeck.console.reads", qos: .userInitiated)
    private let inbox: Inbox
    private let waiting = Mutex<[ConsoleEffect]>([])
    private let underWay = Atomic(false)

    /// Reads that leave their results in `inbox`.
    init(inbox: Inbox) {
        self.inbox = inbox
    }

    /// Puts `effect` (a `load` or `refresh`) last in line.
    func submit(_ effect: ConsoleEffect) {
        waiting.withLock { $0.append(effect) }
    }

    /// Unless a read is under way, starts the first one in line that `wanted` keeps (it
    /// returns the read trimmed, or `nil` to drop it) on `source`. Called from the terminal's
    /// thread whenever a read may have been submitted or finished.
    func startNext(on source: any ConsoleDataSource, keeping wanted: (ConsoleEffect) -> ConsoleEffect?) {
        guard !underWay.load(ordering: .sequentiallyConsistent) else { return }
        let next = waiting.withLock { waiting -> ConsoleEffect? in
            while !waiting.isEmpty {
                if let effect = wanted(waiting.removeFirst()) { return effect }
            }
            return nil
        }
        guard let next else { return }
        underWay.store(true, ordering: .sequentiallyConsistent)
        inbox.started()
        queue.async { [self] in
            let message = EffectPerformer.perform(next, on: source) { self.inbox.post($0) }
            underWay.store(false, ordering: .sequentiallyConsistent)
            inbox.finished(message)
        }
    }
}
