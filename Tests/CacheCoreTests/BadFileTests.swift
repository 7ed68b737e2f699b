import CacheDeckTestSupport
import Foundation
import Testing

@testable import CacheCore

/// Every kind of bad file opened through `CacheStore(path:options:)` with the app's default
/// options, with `.inspection()` and with `readOnly: true`: a refusal is a ``CacheError``
/// whose one-line description names the path, and the file keeps its bytes. The default
/// options differ on purpose for a cache: a damaged file is quarantined (moved aside byte for
/// byte), an empty or missing one becomes a new store.
@Suite struct BadFileTests {
    enum Opening: String, CaseIterable, Sendable, CustomStringConvertible {
        case defaults, inspection, readOnly

        var description: String { rawValue }

        var options: StoreOptions {
            switch self {
            case .defaults: StoreOptions()
            case .inspection: .inspection()
            case .readOnly: StoreOptions(readOnly: true)
            }
        }

        /// The helper's name for these options (`probe PATH OPTIONS`).
        var helperName: String {
            switch self {
            case .defaults: "default"
            case .inspection: "inspection"
            case .readOnly: "read-only"
            }
        }
    }

    /// What opening `bad` at `path` that way throws, or `nil` when it opens (a readable
    /// cache read-only), quarantines, initialises or creates the file.
    static func refusal(_ bad: BadFile, at path: String, _ opening: Opening) -> CacheError? {
        let refusesDamage = opening != .defaults
        switch bad {
        case .notADatabase:
            return refusesDamage ? .notACacheFile(path: path, reason: "it is not a SQLite database") : nil
        case .otherApplication:
            return .notACacheFile(path: path, reason: "it holds another application's tables (invoices)")
        case .pythonDiskcache:
            return .notACacheFile(path: path, reason: "it is a python-diskcache cache")
        case .newerFormat:
            return .newerFormat(path: path, found: 99, supported: Schema.currentVersion)
        case .truncated:
            let size = fileBytes(path)?.count ?? 0
            let reason = "it is truncated: \(size) of the \(2 * size) bytes its header records"
            return refusesDamage ? .notACacheFile(path: path, reason: reason) : nil
        case .emptyFile:
            return refusesDamage ? .notACacheFile(path: path, reason: "the file is empty") : nil
        case .missing:
            return refusesDamage ? .cannotOpen(path: path, reason: "no such file") : nil
        case .directory:
            return .cannotOpen(path: path, reason: "it is a directory")
        case .readOnly:
            return opening == .defaults ? .readOnly(path: path) : nil
        case .permissionDenied:
            return .cannotOpen(path: path, reason: "permission denied")
        }
    }

    struct Case: Sendable, CustomStringConvertible {
        let bad: BadFile
        let opening: Opening
        var description: String { "\(bad) with \(opening)" }
    }

    /// The kinds this process sees as bad, each way that refuses them.
    static let refusedInProcess: [Case] = BadFile.allCases.filter { !$0.needsUnprivilegedUser }.flatMap { bad in
        Opening.allCases.filter { bad.refusesWithoutQuarantine($0) }.map { Case(bad: bad, opening: $0) }
    }

    @Test(arguments: refusedInProcess)
    func aRefusalIsOneLineNamingThePathAndTheFileIsUnchanged(_ test: Case) throws {
        let folder = TemporaryFolder()
        let path = try test.bad.make(in: folder.path)
        let listing = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        let bytes = fileBytes(path)
        let expected = try #require(Self.refusal(test.bad, at: path, test.opening))
        #expect(throws: expected) { try CacheStore(path: path, options: test.opening.options) }
        let line = "\(expected)"
        #expect(!line.contains("\n") && line.contains(path))
        #expect(fileBytes(path) == bytes)
        let name = (path as NSString).lastPathComponent
        let added = Set(try FileManager.default.contentsOfDirectory(atPath: folder.path)).subtracting(listing)
        #expect(added.isSubset(of: [name + "-wal", name + "-shm"]), "left \(added) behind")
        #expect(fileBytes(path + "-wal").map(\.isEmpty) ?? true)
    }

    @Test(arguments: [BadFile.notADatabase, .truncated])
    func defaultOptionsQuarantineADamagedFileByteForByteAndStartAFreshStore(_ bad: BadFile) throws {
        let folder = TemporaryFolder()
        let path = try bad.make(in: folder.path)
        let bytes = try #require(fileBytes(path))
        let store = try CacheStore(path: path)
        let report = try #require(store.quarantinedFile, "the open reports the quarantine")
        #expect(report.originalPath == path && report.movedTo.hasPrefix(path + ".corrupt-"))
        #expect(
            report.reason
                == (bad == .truncated
                    ? "it is truncated: \(bytes.count) of the \(2 * bytes.count) bytes its header records"
                    : "it is not a SQLite database"))
        #expect(fileBytes(report.movedTo) == bytes, "the damaged file is kept, byte for byte")
        let cache = try store.cache("colors", key: Int.self, value: String.self)
        #expect(try cache.get(1) == nil)
        try cache.set("red", for: 1)
        #expect(try cache.get(1) == "red")
    }

    @Test func defaultOptionsMakeAnEmptyFileANewStoreAndCreateAMissingOne() throws {
        for bad in [BadFile.emptyFile, .missing] {
            let folder = TemporaryFolder()
            let path = try bad.make(in: folder.path)
            let store = try CacheStore(path: path)
            #expect(store.quarantinedFile == nil)
            try store.cache("colors", key: Int.self, value: String.self).set("red", for: 1)
            #expect(try rawScalar(path: path, "PRAGMA application_id") == Schema.applicationID)
        }
    }

    /// Root reads and writes anything, so these run in the helper as a user permissions apply
    /// to; a read-only file there sits in a folder that user cannot write either (no `-shm`).
    @Test(
        arguments: [BadFile.readOnly, .permissionDenied].flatMap { bad in
            Opening.allCases.map { Case(bad: bad, opening: $0) }
        })
    func permissionsAreCheckedInAProcessTheyApplyTo(_ test: Case) throws {
        let folder = TemporaryFolder()
        let path = try test.bad.make(in: folder.path)
        let bytes = fileBytes(path)
        let helper = try HelperProcess(["probe", path, test.opening.helperName], unprivileged: true)
        let exit = try helper.waitForExit()
        if let expected = Self.refusal(test.bad, at: path, test.opening) {
            #expect(!exit.succeeded && exit.stderr == "cachedeck-testhelper: \(expected)\n")
            #expect(helper.lines.isEmpty)
        } else {
            #expect(exit.succeeded, "\(exit.stderr)")
            #expect(helper.lines == ["opened read-only, 1 namespaces"])
        }
        #expect(fileBytes(path) == bytes)
    }

    @Test func aCacheCutInsideItsLastPageIsRefusedAtOpenThoughSQLiteWouldReadIt() throws {
        let folder = TemporaryFolder()
        let source = try BadFile.readOnly.make(in: folder.path)
        let path = folder.file("cut.sqlite")
        let whole = try #require(fileBytes(source))
        #expect(FileManager.default.createFile(atPath: path, contents: whole.dropLast(1), attributes: nil))
        let reason = "it is truncated: \(whole.count - 1) bytes is not a whole number of 4096-byte pages"
        for opening in [Opening.inspection, .readOnly] {
            #expect(throws: CacheError.notACacheFile(path: path, reason: reason)) {
                try CacheStore(path: path, options: opening.options)
            }
        }
        #expect(fileBytes(path) == whole.dropLast(1))
        let store = try CacheStore(path: path)
        #expect(store.quarantinedFile?.reason == reason)
    }

    @Test func aCacheCutAtAPageBoundaryNamesTheSizeItsHeaderRecords() throws {
        let folder = TemporaryFolder()
        let source = try BadFile.readOnly.make(in: folder.path)
        let path = folder.file("cut.sqlite")
        let whole = try #require(fileBytes(source))
        #expect(FileManager.default.createFile(atPath: path, contents: whole.dropLast(4096), attributes: nil))
        #expect(
            throws: CacheError.notACacheFile(
                path: path,
                reason: "it is truncated: \(whole.count - 4096) of the \(whole.count) bytes its header records")
        ) {
            try CacheStore(path: path, options: .inspection())
        }
    }

    /// Without `-shm` and a writable folder, a read-only reader sees the file itself only;
    /// a `-wal` with content would be skipped, so that is refused rather than read stale.
    @Test(.enabled(if: Unprivileged.isRoot, "the folder is writable for a user who is not root"))
    func aReadOnlyReaderRefusesAWALItCannotIndex() throws {
        let folder = TemporaryFolder()
        let path = try BadFile.readOnly.make(in: folder.path)
        #expect(FileManager.default.createFile(atPath: path + "-wal", contents: Data(count: 4096), attributes: nil))
        let helper = try HelperProcess(["probe", path, "inspection"], unprivileged: true)
        let exit = try helper.waitForExit()
        let expected = CacheError.cannotOpen(
            path: path, reason: "reading it needs \(path)-shm, which is missing and cannot be created here")
        #expect(!exit.succeeded && exit.stderr == "cachedeck-testhelper: \(expected)\n")
    }
}

extension BadFile {
    /// Whether opening it that way throws (rather than quarantining, initialising, creating
    /// or opening it).
    func refusesWithoutQuarantine(_ opening: BadFileTests.Opening) -> Bool {
        BadFileTests.refusal(self, at: "/p", opening) != nil
    }
}
