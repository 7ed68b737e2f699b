/// An ``InvalidationSelector`` whose texts are ``KeyTemplate``s.
struct SelectorTemplate: Sendable {
    private let selector: InvalidationSelector
    private let namespace: KeyTemplate?
    private let texts: [KeyTemplate]

    init(_ selector: InvalidationSelector) {
        self.selector = selector
        namespace = selector.namespace.map(KeyTemplate.init)
        switch selector {
        case .key(_, let key): texts = [KeyTemplate(key)]
        case .keys(_, let keys): texts = keys.map(KeyTemplate.init)
        case .prefix(_, let prefix): texts = [KeyTemplate(prefix)]
        case .tag(let tag, _): texts = [KeyTemplate(tag)]
        case .namespace, .all: texts = []
        }
    }

    var parameters: [String] { (namespace?.parameters ?? []) + texts.flatMap(\.parameters) }

    /// Parameters written `{name?}`: without them the selector is skipped, not an error.
    var optionalParameters: Set<String> {
        (namespace?.optionalParameters ?? []).union(texts.flatMap(\.optionalParameters))
    }

    /// Throws when a prefix ends with a parameter (it would reach other parameter values).
    func checkPrefixSafety() throws {
        if case .prefix = selector, texts.first?.endsWithParameter == true {
            throw CacheError.invalidRule(
                reason: "prefix '\(selector)' ends with a parameter, so it would match other values too")
        }
    }

    /// The parameter sets under which `fired` is this selector (one per key for `.keys`).
    func matches(_ fired: InvalidationSelector) -> [[String: String]] {
        let namespaceValues: [String: String]?
        if let namespace {
            guard let name = fired.namespace, let values = namespace.match(name) else { return [] }
            namespaceValues = values
        } else {
            namespaceValues = fired.namespace == nil ? [:] : nil
        }
        guard let base = namespaceValues else { return [] }
        let firedTexts: [String]
        switch (selector, fired) {
        case (.key, .key(_, let key)): firedTexts = [key]
        case (.key, .keys(_, let keys)): firedTexts = keys
        case (.prefix, .prefix(_, let prefix)): firedTexts = [prefix]
        case (.tag, .tag(let tag, _)): firedTexts = [tag]
        case (.namespace, .namespace), (.all, .all): return [base]
        default: return []
        }
        guard let template = texts.first, texts.count == 1 else { return [] }
        return firedTexts.compactMap { text in
            guard let values = template.match(text) else { return nil }
            var merged = base
            for (name, value) in values {
                if let existing = merged[name], existing != value { return nil }
                merged[name] = value
            }
            return merged
        }
    }

    /// The selector with `values` filled in; `nil` when one is missing.
    func fill(_ values: [String: String]) -> InvalidationSelector? {
        let name = namespace.map { $0.fill(values) }
        if name == .some(nil) { return nil }
        let filled = texts.map { $0.fill(values) }
        if filled.contains(where: { $0 == nil }) { return nil }
        let strings = filled.compactMap { $0 }
        let namespaceName = name.flatMap { $0 } ?? ""
        switch selector {
        case .key: return .key(namespace: namespaceName, key: strings[0])
        case .keys: return .keys(namespace: namespaceName, keys: strings)
        case .prefix: return .prefix(namespace: namespaceName, prefix: strings[0])
        case .tag: return .tag(strings[0], namespace: name.flatMap { $0 })
        case .namespace: return .namespace(namespaceName)
        case .all: return .all
        }
    }
}
