import Foundation
import Synchronization
import Testing

@testable import CacheCore

/// Several processes on one file and racing creators, driven
/// through the `cachedeck-testhelper` executable. Synchronisation is by the helpers' output
/// lines, never by sleeping; timeouts only guard against hangs.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct MultiProcessTests {
    @Test func fourWritersAndAReaderShareOneFile() throws {
        let folder = TemporaryFolder()
        let path = folder.file()
        let store = try CacheStore(path: path)
        let cache = try store.cache("shared", key: String.self, value: String.self)
        let writers = 4
        let count = 300
        let pad = 16
        let helpers = try (0..<writers).map {
            try HelperProcess(["write", path, "shared", "w\($0)", "\(count)", "--pad", "\(pad)", "--barrier"])
        }
        for helper in helpers { try helper.waitForLine("ready") }
        let reader = BackgroundReader(cache: cache, prefixes: (0..<writers).map { "w\($0)" }, count: count, pad: pad)
        for helper in helpers { helper.release() }

        for helper in helpers {
            let exit = try helper.waitForExit()
            #expect(exit.succeeded, "helper \(helper.arguments) failed: \(exit.stderr)")
            #expect(exit.stderr.isEmpty, "helper \(helper.arguments) wrote to stderr: \(exit.stderr)")
            #expect(helper.lines.filter { $0.hasPrefix("ok ") }.count == count)
        }
        let report = reader.stop()
        #expect(report.errors.isEmpty, "reads in the test process failed: \(report.errors.prefix(5))")
        #expect(report.wrongValues.isEmpty, "reads returned wrong values: \(report.wrongValues.prefix(5))")

        for writer in 0..<writers {
            let wrong = try wrongEntries(cache, prefix: "w\(writer)", indices: 0..<count, pad: pad)
            #expect(wrong.isEmpty, "\(wrong.count) entries of w\(writer) missing or wrong, e.g. \(wrong.prefix(5))")
        }
        #expect(try cache.count() == writers * count)
        try store.close()
        try expectIntegrity(path)
    }

    @Test func eightProcessesCreateOneNewFileAtOnce() throws {
        let processes = 8
        for round in 0..<10 {
            let folder = TemporaryFolder()
            let path = folder.file()
            #expect(!FileManager.default.fileExists(atPath: path))
            let helpers = try (0..<processes).map { try HelperProcess(["open", path, "\($0)", "--barrier"]) }
            for helper in helpers { try helper.waitForLine("ready") }
            for helper in helpers { helper.release() }
            for helper in helpers {
                let exit = try helper.waitForExit()
                #expect(exit.succeeded, "round \(round): helper \(helper.arguments) failed: \(exit.stderr)")
                #expect(helper.lines == ["ready", "ok"], "round \(round): \(helper.lines), stderr: \(exit.stderr)")
            }

            let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter {
                $0.contains("corrupt")
            }
            #expect(leftovers.isEmpty, "round \(round): a racing open quarantined the new file: \(leftovers)")
            let store = try CacheStore(path: path, options: .inspection())
            let cache = try store.cache("open", key: String.self, value: String.self)
            for id in 0..<processes {
                #expect(try cache.get("open-\(id)") == "opened-by-\(id)", "round \(round): open-\(id) missing")
            }
            try store.close()
            try expectIntegrity(path)
        }
    }
}

/// The keys among PREFIX-`indices` that are missing or do not hold the helper's value.
func wrongEntries(_ cache: Cache<String, String>, prefix: String, indices: Range<Int>, pad: Int) throws
    -> [String]
{
    try indices.compactMap { index in
        let key = "\(prefix)-\(index)"
        return try cache.get(key) == helperValue(prefix: prefix, index: index, pad: pad) ? nil : key
    }
}

/// Runs `PRAGMA integrity_check` on a raw connection to the file.
func expectIntegrity(_ path: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
    let connection = try SQLiteConnection(path: path, readOnly: true, create: false, busyTimeout: .seconds(5))
    let result = try connection.withDynamicStatement("PRAGMA integrity_check") { try $0.rows { $0.text(0) } }
    #expect(result == ["ok"], "integrity_check of \(path): \(result)", sourceLocation: sourceLocation)
}

/// Reads the writers' keys in a loop on its own thread until stopped; a key may be missing
/// (not written yet) but never hold a wrong value, and no read may fail.
private final class BackgroundReader: Sendable {
    struct Report: Sendable {
        var reads = 0
        var hits = 0
        var errors: [String] = []
        var wrongValues: [String] = []
    }

    private let stopping = Atomic(false)
    private let done = DispatchSemaphore(value: 0)
    private let report = Mutex(Report())

    init(cache: Cache<String, String>, prefixes: [String], count: Int, pad: Int) {
        let thread = Thread { [self] in
            var local = Report()
            while !stopping.load(ordering: .acquiring) {
                let prefix = prefixes.randomElement() ?? ""
                let index = Int.random(in: 0..<count)
                local.reads += 1
                do {
                    if let value = try cache.get("\(prefix)-\(index)") {
                        local.hits += 1
                        if value != helperValue(prefix: prefix, index: index, pad: pad) {
                            local.wrongValues.append("\(prefix)-\(index)")
                        }
                    }
                } catch {
                    local.errors.append("\(error)")
                }
            }
            report.withLock { $0 = local }
            done.signal()
        }
        thread.start()
    }

    /// Stops the loop and returns what it saw.
    func stop() -> Report {
        stopping.store(true, ordering: .releasing)
        done.wait()
        return report.withLock { $0 }
    }
}
