import CacheCore
import Foundation

/// `app PATH ID COUNT`: one application process of the contention test.
///
/// Each of COUNT rounds makes a durable set in `ledger` (`aID-i`, never expires), a set of a
/// shared key in the hybrid namespace `hot` (`h0` … `h49`), a set in `short` (expires after
/// 50 ms, for sweeps to find), and reads back one of its own ledger keys and one hot key.
/// A failed call prints `error: …` and the rounds go on. Then it reads every hot key (so its
/// memory tier holds whatever the file has), prints `done COUNT`, and waits for stdin to
/// close: that is the test saying it cleared `hot`. It then synchronizes and prints
/// `converged` if no hot key is left in memory or file, else `stale KEY…`.
struct AppCommand {
    static let hotKeys = (0..<50).map { "h\($0)" }

    let path: String
    let id: String
    let count: Int

    init(_ arguments: inout Arguments) throws {
        path = try arguments.next("PATH")
        id = try arguments.next("ID")
        count = try arguments.nextInt("COUNT")
    }

    func run() throws {
        let store = try CacheStore(path: path)
        let ledger = try store.cache("ledger", key: String.self, value: String.self, policy: .default.expiring(.never))
        let hot = try store.cache("hot", key: String.self, value: String.self, policy: .hybrid.expiring(.never))
        let short = try store.cache(
            "short", key: Int.self, value: String.self, policy: .default.expiring(.after(.milliseconds(50))))
        var generator = SystemRandomNumberGenerator()
        for index in 0..<count {
            attempt("set ledger \(index)") { try ledger.set(value(index), for: "a\(id)-\(index)") }
            attempt("set hot") {
                try hot.set("a\(id)-\(index)", for: Self.hotKeys[Int.random(in: 0..<50, using: &generator)])
            }
            attempt("set short") { try short.set(value(index), for: index % 100) }
            let mine = Int.random(in: 0...index, using: &generator)
            attempt("read ledger \(mine)") {
                let found = try ledger.get("a\(id)-\(mine)")
                if found != value(mine) { throw HelperError("a\(id)-\(mine) holds \(found ?? "nothing")") }
            }
            attempt("get hot") { _ = try hot.get(Self.hotKeys[Int.random(in: 0..<50, using: &generator)]) }
        }
        for key in Self.hotKeys { attempt("get \(key)") { _ = try hot.get(key) } }
        Output.say("done \(count)")
        _ = readLine()
        try store.synchronize()
        let stale = try Self.hotKeys.filter { try hot.get($0) != nil }
        Output.say(stale.isEmpty ? "converged" : "stale " + stale.joined(separator: " "))
        try store.close()
    }

    private func value(_ index: Int) -> String { "app \(id) wrote \(index)" }

    private func attempt(_ what: String, _ body: () throws -> Void) {
        do {
            try body()
        } catch {
            Output.say("error: \(what): \(error)")
        }
    }
}
