import Foundation
import Synchronization

/// Turns Ctrl-C (SIGINT) and SIGTERM into a flag, so a loop can stop and close the store.
///
/// `@unchecked Sendable`: the signal sources are set once in `init` and only kept alive;
/// the flag is atomic.
final class Interruption: @unchecked Sendable {
    private let flag = Atomic(false)
    private var sources: [any DispatchSourceSignal] = []

    init() {
        sources = [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [weak self] in self?.flag.store(true, ordering: .relaxed) }
            source.resume()
            return source
        }
    }

    /// Whether a signal arrived.
    var happened: Bool { flag.load(ordering: .relaxed) }
}
