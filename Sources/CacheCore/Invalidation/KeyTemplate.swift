/// Text with `{parameter}` placeholders, such as `guests_{tenant}`: it matches text and
/// captures the parameters, and fills them back in.
struct KeyTemplate: Sendable, Hashable {
    enum Part: Sendable, Hashable {
        case literal(String)
        case parameter(String)
    }

    let parts: [Part]

    /// Parses `text`; throws when a brace is unbalanced or a parameter is unnamed.
    init(_ text: String) throws {
        var parts: [Part] = []
        var rest = Substring(text)
        while let open = rest.firstIndex(where: { $0 == "{" || $0 == "}" }) {
            guard rest[open] == "{", let close = rest[open...].firstIndex(of: "}") else {
                throw CacheError.invalidRule(reason: "unbalanced brace in '\(text)'")
            }
            let name = String(rest[rest.index(after: open)..<close])
            guard !name.isEmpty, !name.contains("{") else {
                throw CacheError.invalidRule(reason: "empty or nested parameter in '\(text)'")
            }
            if open > rest.startIndex { parts.append(.literal(String(rest[..<open]))) }
            parts.append(.parameter(name))
            rest = rest[rest.index(after: close)...]
        }
        if !rest.isEmpty { parts.append(.literal(String(rest))) }
        self.parts = parts
    }

    /// The parameter names, in order of appearance.
    var parameters: [String] {
        parts.compactMap { if case .parameter(let name) = $0 { name } else { nil } }
    }

    /// Whether the text ends with a parameter (a prefix ending so would reach other values:
    /// `guests_1` is a prefix of `guests_10`).
    var endsWithParameter: Bool {
        if case .parameter = parts.last { true } else { false }
    }

    /// The parameters if `text` matches the whole template (each parameter non-empty and the
    /// same value wherever it repeats), else `nil`.
    func match(_ text: String) -> [String: String]? {
        Self.match(parts[...], Substring(text), bound: [:])
    }

    /// The text with every parameter replaced; `nil` if one has no value.
    func fill(_ values: [String: String]) -> String? {
        var text = ""
        for part in parts {
            switch part {
            case .literal(let literal): text += literal
            case .parameter(let name):
                guard let value = values[name] else { return nil }
                text += value
            }
        }
        return text
    }

    private static func match(
        _ parts: ArraySlice<Part>, _ text: Substring, bound: [String: String]
    ) -> [String: String]? {
        guard let part = parts.first else { return text.isEmpty ? bound : nil }
        let rest = parts.dropFirst()
        switch part {
        case .literal(let literal):
            guard text.hasPrefix(literal) else { return nil }
            return match(rest, text.dropFirst(literal.count), bound: bound)
        case .parameter(let name):
            if let value = bound[name] {
                guard text.hasPrefix(value) else { return nil }
                return match(rest, text.dropFirst(value.count), bound: bound)
            }
            var end = text.startIndex
            while end < text.endIndex {
                end = text.index(after: end)
                var extended = bound
                extended[name] = String(text[..<end])
                if let result = match(rest, text[end...], bound: extended) { return result }
            }
            return nil
        }
    }
}
