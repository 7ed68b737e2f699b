import CacheCore
import CacheCoreRedis
import Foundation

/// `write PATH NAMESPACE PREFIX COUNT [--pad N] [--barrier] [--churn]`
struct WriteCommand {
    let path: String
    let namespace: String
    let prefix: String
    let count: Int
    let pad: Int
    let barrier: Bool
    let churn: Bool

    init(_ arguments: inout Arguments) throws {
        path = try arguments.next("PATH")
        namespace = try arguments.next("NAMESPACE")
        prefix = try arguments.next("PREFIX")
        count = try arguments.nextInt("COUNT")
        pad = try arguments.int("--pad", default: 16)
        barrier = arguments.has("--barrier")
        churn = arguments.has("--churn")
    }

    func run() throws {
        if barrier { Output.barrier() }
        let store = try CacheStore(path: path)
        let cache = try store.cache(namespace, key: String.self, value: String.self)
        let churning = churn ? try startChurn(store) : nil
        var generator = SystemRandomNumberGenerator()
        for index in 0..<count {
            try churning?.set(String(repeating: "c", count: index % 5000), for: index % 500)
            try cache.set(helperValue(prefix: prefix, index: index, pad: pad), for: "\(prefix)-\(index)")
            Output.say("ok \(index)")
            try check(cache, index: index)
            if index % 8 == 7 { try check(cache, index: Int.random(in: 0...index, using: &generator)) }
        }
        try store.close()
    }

    /// Load beside the durable sets: entries that expire at once, swept, and the WAL
    /// checkpointed and truncated, every 5 ms, so a kill can land in any of them.
    private func startChurn(_ store: CacheStore) throws -> Cache<Int, String> {
        try store.startMaintenance(
            MaintenanceOptions(interval: .milliseconds(5), repeatDelay: .milliseconds(1), walTruncateBytes: 64 << 10))
        return try store.cache(
            "churn", key: Int.self, value: String.self, policy: .default.expiring(.after(.milliseconds(1))))
    }

    /// Reads back one of this process's keys, which must hold exactly what was written.
    private func check(_ cache: Cache<String, String>, index: Int) throws {
        let key = "\(prefix)-\(index)"
        let found = try cache.get(key)
        guard found == helperValue(prefix: prefix, index: index, pad: pad) else {
            throw HelperError("read back \(key): got \(found.map { "'\($0.prefix(40))…'" } ?? "nil")")
        }
    }
}

/// `open PATH ID [--barrier]`
struct OpenCommand {
    let path: String
    let id: String
    let barrier: Bool

    init(_ arguments: inout Arguments) throws {
        path = try arguments.next("PATH")
        id = try arguments.next("ID")
        barrier = arguments.has("--barrier")
    }

    func run() throws {
        if barrier { Output.barrier() }
        let store = try CacheStore(path: path)
        if let moved = store.quarantinedFile { throw HelperError("opening quarantined the file: \(moved)") }
        let cache = try store.cache("open", key: String.self, value: String.self)
        try cache.set("opened-by-\(id)", for: "open-\(id)")
        guard try cache.get("open-\(id)") == "opened-by-\(id)" else { throw HelperError("open-\(id) not read back") }
        try store.close()
        Output.say("ok")
    }
}

/// `set PATH NAMESPACE KEY VALUE`
struct SetCommand {
    let path: String
    let namespace: String
    let key: String
    let value: String

    init(_ arguments: inout Arguments) throws {
        path = try arguments.next("PATH")
        namespace = try arguments.next("NAMESPACE")
        key = try arguments.next("KEY")
        value = try arguments.next("VALUE")
    }

    func run() throws {
        let store = try CacheStore(path: path)
        let cache = try store.cache(namespace, key: String.self, value: String.self, policy: .hybrid.expiring(.never))
        try cache.set(value, for: key)
        try store.close()
        Output.say("ok")
    }
}

/// `redis-set URL NAMESPACE KEY VALUE`: the same on a Redis store (hybrid, never expires).
struct RedisSetCommand {
    let url: String
    let namespace: String
    let key: String
    let value: String

    init(_ arguments: inout Arguments) throws {
        url = try arguments.next("URL")
        namespace = try arguments.next("NAMESPACE")
        key = try arguments.next("KEY")
        value = try arguments.next("VALUE")
    }

    func run() throws {
        let store = try RedisStore(url: url)
        let cache = try store.cache(namespace, key: String.self, value: String.self, policy: .hybrid.expiring(.never))
        try cache.set(value, for: key)
        store.close()
        Output.say("ok")
    }
}

/// `invalidate PATH NAMESPACE KEY`
struct InvalidateCommand {
    let path: String
    let namespace: String
    let key: String

    init(_ arguments: inout Arguments) throws {
        path = try arguments.next("PATH")
        namespace = try arguments.next("NAMESPACE")
        key = try arguments.next("KEY")
    }

    func run() throws {
        let store = try CacheStore(path: path, options: .inspection(writable: true))
        let result = try store.invalidate(.key(namespace: namespace, key: key))
        try store.close()
        Output.say("removed \(result.totalRemoved)")
    }
}
