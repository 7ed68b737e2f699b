import Foundation

/// Hand-parsed arguments: positionals in order, plus `--flag` and `--option value`.
struct Arguments {
    private var positionals: [String] = []
    private var options: [String: String] = [:]
    private var flags: Set<String> = []

    init(_ raw: [String]) {
        var index = 0
        while index < raw.count {
            let argument = raw[index]
            if ["--barrier", "--hold", "--churn"].contains(argument) {
                flags.insert(argument)
            } else if argument.hasPrefix("--"), index + 1 < raw.count {
                options[argument] = raw[index + 1]
                index += 1
            } else {
                positionals.append(argument)
            }
            index += 1
        }
    }

    mutating func next(_ name: String) throws -> String {
        guard !positionals.isEmpty else { throw HelperError("missing argument \(name)") }
        return positionals.removeFirst()
    }

    mutating func nextInt(_ name: String) throws -> Int {
        let text = try next(name)
        guard let value = Int(text), value >= 0 else { throw HelperError("\(name) must be a count, not '\(text)'") }
        return value
    }

    func int(_ option: String, default fallback: Int) throws -> Int {
        guard let text = options[option] else { return fallback }
        guard let value = Int(text), value >= 0 else { throw HelperError("\(option) must be a count, not '\(text)'") }
        return value
    }

    func has(_ flag: String) -> Bool { flags.contains(flag) }
}

struct HelperError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Unbuffered output: each line reaches the pipe before the helper goes on.
enum Output {
    static func say(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data("cachedeck-testhelper: \(message)\n".utf8))
        exit(1)
    }

    /// Prints `ready` and blocks until the test closes stdin (or writes a line).
    static func barrier() {
        say("ready")
        _ = readLine()
    }
}

/// The value stored under PREFIX-index; the tests compute the same text to check it.
func helperValue(prefix: String, index: Int, pad: Int) -> String {
    "\(prefix)-\(index):" + String(repeating: "x", count: pad + index % 7)
}
