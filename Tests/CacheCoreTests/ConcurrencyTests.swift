import CacheCore
import Dispatch
import Foundation
import Synchronization
import Testing

@Suite struct ConcurrencyTests {
    @Test func manyThreadsReadAndWriteOneStoreWithoutLosingWrites() throws {
        let fixture = try TestStore()
        let cache = try fixture.store.cache("shared", key: String.self, value: Int.self)
        let failures = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            do {
                for i in 0..<300 {
                    try cache.set(i, for: "t\(thread)-\(i)")
                    if try cache.get("t\(thread)-\(i)") != i {
                        failures.withLock { $0.append("t\(thread)-\(i) misread") }
                    }
                    _ = try cache.get("t\((thread + 1) % 8)-\(i)")
                }
            } catch {
                failures.withLock { $0.append("\(error)") }
            }
        }
        #expect(failures.withLock { $0 } == [])
        #expect(try cache.count() == 8 * 300)
    }

    @Test func twoStoresOnOneFileSeeEachOthersCommits() throws {
        let fixture = try TestStore()
        let other = try fixture.reopen()
        let first = try fixture.store.cache("n", key: Int.self, value: Int.self)
        let second = try other.cache("n", key: Int.self, value: Int.self)
        let failures = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 2) { side in
            let cache = side == 0 ? first : second
            do {
                for i in 0..<400 { try cache.set(i, for: side * 1000 + i) }
            } catch {
                failures.withLock { $0.append("\(error)") }
            }
        }
        #expect(failures.withLock { $0 } == [])
        #expect(try first.get(1399) == 399)
        #expect(try second.get(399) == 399)
        #expect(try first.count() == 800)
    }
}
