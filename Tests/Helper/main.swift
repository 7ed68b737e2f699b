// cachedeck-testhelper: a fixture process for CacheCore's multi-process and crash tests.
//
//   write PATH NAMESPACE PREFIX COUNT [--pad N] [--barrier] [--churn]
//       Sets PREFIX-0 … PREFIX-(COUNT-1), one durable set each, printing `ok i` once set i
//       has returned; reads keys back as it goes and fails on a wrong value. `--churn` adds
//       load: an entry that expires at once per set, and maintenance every 5 ms (sweeps,
//       checkpoints, WAL truncation).
//   app PATH ID COUNT
//       One app of the contention test (see AppCommand).
//   open PATH ID [--barrier]
//       Opens (or creates) the store, sets and gets `open-ID` in namespace "open", prints `ok`.
//   set PATH NAMESPACE KEY VALUE
//       Sets one string value (never expires) and prints `ok`.
//   redis-set URL NAMESPACE KEY VALUE
//       The same on a RedisStore at URL (default prefix), then closes it.
//   invalidate PATH NAMESPACE KEY
//       Invalidates one key and prints `removed N`.
//   telemetry PATH NAMESPACE COUNT [--hold]
//       Sets keys 0 … COUNT-1 in one batch, reads each (a hit) and COUNT … 2·COUNT-1 (misses),
//       flushes telemetry and prints `flushed CLIENT-ID`; with `--hold` it then prints `ready`
//       and waits for stdin to close; closes the store and prints `closed`.
//   composite-key PATH
//       Stores "from-helper" under a key with sets and dictionaries (see CompositeKey).
//   probe PATH default|inspection|read-only
//       Opens the store with those options, prints `opened …` (or the error, exit 1).
//
// `--barrier` prints `ready` and waits until stdin closes before touching the file, so a
// test can start several helpers at the same moment. Errors go to stderr with exit code 1.

import CacheCore
import CacheCoreRedis
import Foundation

do {
    var arguments = Arguments(Array(CommandLine.arguments.dropFirst()))
    switch try arguments.next("command") {
    case "write": try WriteCommand(&arguments).run()
    case "open": try OpenCommand(&arguments).run()
    case "app": try AppCommand(&arguments).run()
    case "set": try SetCommand(&arguments).run()
    case "redis-set": try RedisSetCommand(&arguments).run()
    case "invalidate": try InvalidateCommand(&arguments).run()
    case "telemetry": try TelemetryCommand(&arguments).run()
    case "probe": try ProbeCommand(&arguments).run()
    case "composite-key": try CompositeKeyCommand(&arguments).run()
    case let other: throw HelperError("unknown command '\(other)'")
    }
} catch {
    Output.fail("\(error)")
}
