import Foundation
import Logging
import Synchronization
import Testing

@testable import CacheCore

/// Keeps every message logged through it.
final class RecordingLogHandler: LogHandler, Sendable {
    private let recorded = Mutex<[String]>([])
    var messages: [String] { recorded.withLock { $0 } }
    var metadata: Logger.Metadata {
        get { [:] }
        set {}
    }
    var logLevel: Logger.Level {
        get { .trace }
        set {}
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { nil }
        set {}
    }

    func log(event: LogEvent) {
        recorded.withLock { $0.append("\(event.level): \(event.message)") }
    }
}

@Suite struct LifecycleEdgeTests {
    @Test func closingTwiceIsAQuietNoOp() throws {
        let handler = RecordingLogHandler()
        let fixture = try TestStore { $0.logger = Logger(label: "test") { _ in handler } }
        let cache = try fixture.store.cache("h", key: String.self, value: Int.self, policy: .hybrid)
        try cache.set(1, for: "a")
        try fixture.store.close()
        try fixture.store.close()
        #expect(handler.messages.filter { $0.hasPrefix("warning") || $0.hasPrefix("error") } == [])
    }

    /// `maxAge` is exclusive, like expiry: an entry exactly `maxAge` old is too old.
    @Test(arguments: [NamespacePolicy.default, .hybrid])
    func maxAgeIsExclusiveAtItsBoundary(policy: NamespacePolicy) throws {
        let fixture = try TestStore()
        let cache = try fixture.store.cache("m", key: String.self, value: Int.self, policy: policy)
        try cache.set(1, for: "a")
        fixture.clock.advance(by: .milliseconds(999))
        #expect(try cache.get("a", maxAge: .seconds(1)) == 1)
        fixture.clock.advance(by: .milliseconds(1))
        #expect(try cache.get("a", maxAge: .seconds(1)) == nil)
        let other = try fixture.reopen().cache("m", key: String.self, value: Int.self, policy: policy)
        #expect(try other.get("a", maxAge: .seconds(1)) == nil, "from the file")
        #expect(try other.get("a", maxAge: .milliseconds(1001)) == 1, "from the file")
    }
}
