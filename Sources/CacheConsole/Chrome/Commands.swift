/// The `:` command line's commands, and Tab completion for them.
enum Commands {
    /// What completion draws on.
    struct Context {
        /// Namespace names.
        var namespaces: [String]
        /// Theme names.
        var themes: [String]
    }

    /// Every command with its arguments and what it does, for completion and the help.
    static let all: [(name: String, usage: String, summary: String)] = [
        ("ns", "ns NAME", "Open a namespace's entries"),
        ("sweep", "sweep [NAME]", "Sweep expired entries"),
        ("clear", "clear NAME|all", "Clear a namespace, or all"),
        ("invalidate", "invalidate tag=T [ns=N]", "Invalidate a tag"),
        ("invalidate", "invalidate prefix=P [ns=N]", "Invalidate by key prefix"),
        ("invalidate", "invalidate key=K [ns=N]", "Invalidate one key"),
        ("undo", "undo", "Undo the last action"),
        ("theme", "theme NAME", "Switch the colour theme"),
        ("refresh", "refresh SECONDS", "Set the refresh interval"),
        ("overview", "overview", "Go to the Overview"),
        ("timeline", "timeline", "Show the expiry timeline"),
        ("stats", "stats", "Show the statistics graphs"),
        ("audit", "audit", "Show the audit log"),
        ("mouse", "mouse", "Mouse on / off"),
        ("help", "help", "Show keys and commands"),
        ("q", "q", "Quit"),
    ]

    /// `text` completed as far as it is unambiguous, and the candidates for its last word.
    static func complete(_ text: String, context: Context) -> (text: String, candidates: [String]) {
        let words = text.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        let last = words.last ?? ""
        let options: [String]
        var valuePrefix = ""
        if words.count <= 1 {
            options = all.map(\.name).reduce(into: []) { names, name in if !names.contains(name) { names.append(name) }
            }
        } else {
            switch words[0] {
            case "ns", "sweep": options = context.namespaces
            case "clear": options = context.namespaces + ["all"]
            case "theme": options = context.themes
            case "invalidate":
                if last.hasPrefix("ns=") {
                    valuePrefix = "ns="
                    options = context.namespaces
                } else {
                    options = ["tag=", "prefix=", "key=", "ns="]
                }
            default: options = []
            }
        }
        let typed = String(last.dropFirst(valuePrefix.count))
        let candidates = options.filter { $0.hasPrefix(typed) }
        guard let first = candidates.first else { return (text, []) }
        let common = candidates.dropFirst().reduce(first) { $0.commonPrefix(with: $1) }
        let finished = candidates.count == 1 && !common.hasSuffix("=")
        let completed = words.dropLast() + [valuePrefix + common + (finished ? " " : "")]
        return (completed.joined(separator: " "), candidates.count == 1 ? [] : candidates)
    }
}

extension String {
    /// The longest start this string shares with `other`.
    fileprivate func commonPrefix(with other: String) -> String {
        String(zip(self, other).prefix { $0 == $1 }.map(\.0))
    }
}
