import Foundation

/// Polls `condition` until it holds or `limit` passes; returns how long it took, or `nil` if
/// it never held. Only for what real background threads, processes and servers do, never to
/// time the code under test.
@discardableResult
public func eventually(within limit: Duration = .seconds(30), _ condition: () throws -> Bool) rethrows -> Duration? {
    let start = ContinuousClock.now
    while ContinuousClock.now - start < limit {
        if try condition() { return ContinuousClock.now - start }
        usleep(1000)
    }
    return try condition() ? ContinuousClock.now - start : nil
}

/// ``eventually(within:_:)`` for async tests: it waits with `Task.sleep`, so it holds no
/// thread of the cooperative pool (which a service group's own task may need) meanwhile.
/// Pass an `async` closure (`{ () async in … }`): a synchronous one may pick the blocking
/// overload.
@discardableResult
public func eventually(within limit: Duration = .seconds(30), _ condition: () async throws -> Bool) async rethrows
    -> Duration?
{
    let start = ContinuousClock.now
    while ContinuousClock.now - start < limit {
        if try await condition() { return ContinuousClock.now - start }
        try? await Task.sleep(for: .milliseconds(1))
    }
    return try await condition() ? ContinuousClock.now - start : nil
}
