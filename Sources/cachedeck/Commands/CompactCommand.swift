import ArgumentParser
import CacheConsole
import CacheCore
import Foundation

/// `cachedeck compact FILE`: gives free pages and the WAL back to the filesystem.
struct CompactCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compact",
        abstract: "Give the file's free pages and its WAL back to the filesystem (no entry changes).",
        discussion: """
            Removals leave free pages that later writes reuse; a file made since format 6 gives them back \
            after a clear, sweep or purge by itself, and this does it on request, in 8 MB steps. A file made \
            before format 6 is rebuilt once (VACUUM: apps' writes wait meanwhile, and the disk needs room for a \
            copy), and shrinks by itself from then on. `info` shows what a compact would free.
            """)

    @OptionGroup var store: StoreArguments
    @OptionGroup var output: OutputArguments

    func run() throws {
        let cache = try store.openForActions()
        let interruption = Interruption()
        let showsProgress = !output.json && isatty(STDERR_FILENO) == 1
        let outcome = try cache.compact { progress in
            if showsProgress { FileHandle.standardError.write(Data(("\r" + Self.describe(progress)).utf8)) }
            return !interruption.happened
        }
        if showsProgress { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
        try cache.close()
        if output.json { return try JSONOutput.print(outcome) }
        let (before, after) = (outcome.before.diskBytes, outcome.after.diskBytes)
        print(
            (outcome.isCancelled ? "Stopped by Ctrl-C. " : "")
                + "Compacted \(store.file): \(Formatting.bytes(before)) → \(Formatting.bytes(after)) on disk "
                + "(gave back \(Formatting.bytes(outcome.freedBytes))"
                + (outcome.rebuilt ? "; rebuilt once, later removals give space back by themselves)." : ")."))
    }

    private static func describe(_ progress: CompactionProgress) -> String {
        guard let total = progress.pagesToFree, total > 0 else { return "Rebuilding the file…" }
        return "Compacting: \(Int(Double(progress.pagesFreed) / Double(total) * 100)) % of the free pages given back"
    }
}
