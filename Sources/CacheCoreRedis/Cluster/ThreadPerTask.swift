import Foundation
import Synchronization

/// Runs `body` for each of `0..<count` at once and returns the results in order: the first
/// on the calling thread, each other on a thread of its own. Meant for blocking reads of
/// several servers (a cluster's primaries, by the keyspace scan and the census):
/// `DispatchQueue.concurrentPerform` runs no more at once than there are
/// cores, so on two cores a third primary's read waited for another's to end.
func threadPerTask<T: Sendable>(_ count: Int, _ body: @escaping @Sendable (Int) -> T) -> [T] {
    guard count > 1 else { return count == 1 ? [body(0)] : [] }
    let results = ResultSlots<T>(count)
    let done = DispatchGroup()
    for index in 1..<count {
        done.enter()
        Thread.detachNewThread {
            results.set(index, body(index))
            done.leave()
        }
    }
    results.set(0, body(0))
    done.wait()
    return results.values
}

/// The results of ``threadPerTask(_:_:)``, one slot a task.
private final class ResultSlots<T: Sendable>: Sendable {
    private let slots: Mutex<[T?]>

    init(_ count: Int) { slots = Mutex(Array(repeating: nil, count: count)) }

    func set(_ index: Int, _ value: T) { slots.withLock { $0[index] = value } }

    /// Every slot's value (each task has set its own by then).
    var values: [T] { slots.withLock { $0.compactMap { $0 } } }
}
