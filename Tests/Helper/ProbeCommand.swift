import CacheCore
import Foundation

/// `probe PATH default|inspection|read-only`: opens the store with those options and prints
/// what happened (`opened …` with its namespace count, and where a damaged file was moved).
struct ProbeCommand {
    let path: String
    let options: StoreOptions

    init(_ arguments: inout Arguments) throws {
        path = try arguments.next("PATH")
        switch try arguments.next("OPTIONS") {
        case "default": options = StoreOptions()
        case "inspection": options = .inspection()
        case "read-only": options = StoreOptions(readOnly: true)
        case let other: throw HelperError("unknown options '\(other)'")
        }
    }

    func run() throws {
        let store = try CacheStore(path: path, options: options)
        let namespaces = try store.inspector.namespaces().count
        var line = "opened \(store.isReadOnly ? "read-only" : "read-write"), \(namespaces) namespaces"
        if let moved = store.quarantinedFile { line += "; quarantined to \(moved.movedTo): \(moved.reason)" }
        try store.close()
        Output.say(line)
    }
}
