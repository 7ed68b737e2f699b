import Foundation

/// python-diskcache, run by a Python worker script in a virtual environment the benchmark
/// makes itself (`python3 -m venv` + `pip install diskcache==5.6.3`) under `.build-peers/`.
struct DiskcachePeer {
    static let version = "5.6.3"
    let python: String
    let script: String

    /// Makes (or reuses) the environment and writes the worker script; throws a readable
    /// reason when Python, venv or pip is unavailable.
    static func prepare(in folder: String) throws -> DiskcachePeer {
        let venv = (folder as NSString).appendingPathComponent("venv")
        let python = (venv as NSString).appendingPathComponent("bin/python")
        if !FileManager.default.isExecutableFile(atPath: python) {
            try run(["python3", "-m", "venv", venv], what: "python3 -m venv")
        }
        let check = (try? run([python, "-c", "import diskcache; print(diskcache.__version__)"], what: "import"))
        if check?.trimmingCharacters(in: .whitespacesAndNewlines) != version {
            try run([python, "-m", "pip", "install", "-q", "diskcache==\(version)"], what: "pip install diskcache")
        }
        let script = (folder as NSString).appendingPathComponent("diskcache_worker.py")
        try workerScript.write(toFile: script, atomically: true, encoding: .utf8)
        return DiskcachePeer(python: python, script: script)
    }

    /// The arguments that run one worker (or, with `populate`, fill the cache).
    func arguments(_ mode: String, directory: String, scenario: PeerScenario, sizes: PeerSizes, worker: Int) -> [String]
    {
        [
            python, script, mode, directory, "\(scenario.valueSize)", "\(scenario.mix.getShare)", "\(sizes.keys)",
            "\(sizes.operations)", "\(sizes.deletes)", "\(scenario.processes)", "\(worker)",
        ]
    }

    @discardableResult
    private static func run(_ arguments: [String], what: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        guard process.terminationStatus == 0 else {
            throw BenchError("\(what) failed: \(text.split(separator: "\n").last ?? "")")
        }
        return text
    }

    /// The same plan as ``PeerPlan``: random gets and sets over the keys, then deletes of the
    /// worker's own slice; prints the latencies (ns) as one JSON object.
    private static let workerScript = #"""
        import json, random, sys, time
        import diskcache

        mode, directory = sys.argv[1], sys.argv[2]
        value_size, get_share, keys, operations, deletes, processes, worker = (
            int(sys.argv[3]), float(sys.argv[4]), int(sys.argv[5]), int(sys.argv[6]),
            int(sys.argv[7]), int(sys.argv[8]), int(sys.argv[9]))

        def key(i):
            return "k%08d" % i

        cache = diskcache.Cache(directory)
        if mode == "populate":
            value = b"\x5a" * value_size
            for i in range(keys):
                cache.set(key(i), value)
            cache.close()
            sys.exit(0)

        rng = random.Random(0x9EE5 + worker)
        value = b"\xa5" * value_size
        result = {"get": [], "set": [], "delete": []}
        clock = time.perf_counter_ns
        for _ in range(operations):
            k = key(rng.randrange(keys))
            if rng.random() < get_share:
                start = clock(); cache.get(k); result["get"].append(clock() - start)
            else:
                start = clock(); cache.set(k, value); result["set"].append(clock() - start)
        stride = keys // max(1, processes)
        for i in range(min(deletes, stride)):
            k = key(worker * stride + i)
            start = clock(); cache.delete(k); result["delete"].append(clock() - start)
        cache.close()
        print(json.dumps(result))
        """#
}
