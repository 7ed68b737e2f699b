/// Text with `{parameter}` placeholders, such as `guests_{tenant}`: it matches text and
/// captures the parameters, and fills them back in.
///
/// A placeholder is `{name}` or `{name?}` (optional: an event that lacks it skips the
/// selector instead of failing), where `name` is letters, digits and underscores not starting
/// with a digit. Any other brace is literal text, so the canonical JSON of a typed key
/// (`{"tenant":"{tenant}"}`) is a template too.
struct KeyTemplate: Sendable, Hashable {
    enum Part: Sendable, Hashable {
        case literal(String)
        case parameter(String, optional: Bool)
    }

    let parts: [Part]

    /// Parses `text`.
    init(_ text: String) {
        var parts: [Part] = []
        var literal = ""
        var rest = Substring(text)
        while let first = rest.first {
            if first == "{", let (name, optional, after) = Self.placeholder(at: rest) {
                if !literal.isEmpty { parts.append(.literal(literal)) }
                literal = ""
                parts.append(.parameter(name, optional: optional))
                rest = after
            } else {
                literal.append(first)
                rest = rest.dropFirst()
            }
        }
        if !literal.isEmpty { parts.append(.literal(literal)) }
        self.parts = parts
    }

    /// The placeholder `{name}` or `{name?}` that `text` starts with, and the text after it.
    private static func placeholder(at text: Substring) -> (String, Bool, Substring)? {
        let body = text.dropFirst()
        guard let close = body.firstIndex(of: "}") else { return nil }
        var name = body[..<close]
        let optional = name.hasSuffix("?")
        if optional { name = name.dropLast() }
        guard let head = name.first, head == "_" || (head.isASCII && head.isLetter),
            name.allSatisfy({ $0 == "_" || ($0.isASCII && ($0.isLetter || $0.isNumber)) })
        else { return nil }
        return (String(name), optional, body[body.index(after: close)...])
    }

    /// The parameter names, in order of appearance.
    var parameters: [String] {
        parts.compactMap { if case .parameter(let name, _) = $0 { name } else { nil } }
    }

    /// The names of the optional parameters (`{name?}`).
    var optionalParameters: Set<String> {
        Set(parts.compactMap { if case .parameter(let name, true) = $0 { name } else { nil } })
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
            case .parameter(let name, _):
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
        case .parameter(let name, _):
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
