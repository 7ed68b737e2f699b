import CacheCoreRedis
import ArgumentParser

/// The benchmark tool: each subcommand measures one area against baselines it runs itself
/// and prints the ratios with their budgets from docs/ARCHITECTURE.md.
@main
struct CacheDeckBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cachedeck-bench",
        abstract: "Benchmarks CacheDeck against baselines it runs itself (build with -c release).",
        subcommands: [
            CoreCommand.self, TiersCommand.self, MaintenanceCommand.self, InspectorCommand.self,
            ConsoleBenchCommand.self, FormatCommand.self, PeersCommand.self, PeersWorkerCommand.self,
            AsyncCommand.self, RedisCommand.self, KeyspaceCommand.self, KeyspaceConsoleCommand.self,
            ForeignBenchCommand.self, HitRatioCommand.self, WritePathCommand.self,
        ]
    )
}
