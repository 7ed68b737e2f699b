import CacheCore
import Foundation

/// `telemetry PATH NAMESPACE COUNT [--hold]`
struct TelemetryCommand {
    let path: String
    let namespace: String
    let count: Int
    let hold: Bool

    init(_ arguments: inout Arguments) throws {
        path = try arguments.next("PATH")
        namespace = try arguments.next("NAMESPACE")
        count = try arguments.nextInt("COUNT")
        hold = arguments.has("--hold")
    }

    func run() throws {
        let store = try CacheStore(path: path)
        let cache = try store.cache(namespace, key: Int.self, value: Int.self)
        try cache.set((0..<count).map { (key: $0, value: $0) })
        for index in 0..<count {
            guard try cache.get(index) == index else { throw HelperError("key \(index) not read back") }
            guard try cache.get(count + index) == nil else { throw HelperError("key \(count + index) was found") }
        }
        try store.flushTelemetry()
        guard let clientID = store.clientID else { throw HelperError("no client id after flushing telemetry") }
        Output.say("flushed \(clientID)")
        if hold { Output.barrier() }
        try store.close()
        Output.say("closed")
    }
}
