/// Dependency rules and domain events, declared once in ``StoreOptions/invalidationRules``.
///
/// ```swift
/// var rules = InvalidationRules()
/// rules.rule(
///     when: .key(namespace: "planner", key: "guests_{tenant}"),
///     invalidate: [
///         .key(namespace: "planner", key: "guest_stats_{tenant}"),
///         .key(namespace: "planner", key: "seating_chart_{tenant}"),
///     ])
/// rules.event("guestCreated", invalidates: [.key(namespace: "planner", key: "guests_{tenant}")])
/// // later: try store.invalidate(event: "guestCreated", parameters: ["tenant": "acme"])
/// ```
///
/// A rule fires when an invalidation of the same kind matches its `when` selector; the
/// parameters it captures fill the targets, so a rule for tenant `acme` only reaches
/// `acme`'s keys. Rules fire transitively; each selector is applied once per call.
public struct InvalidationRules: Sendable {
    /// One rule: when `trigger` matches, invalidate `targets` too.
    public struct Rule: Sendable {
        /// The selector (with placeholders) that fires the rule.
        public let trigger: InvalidationSelector
        /// The selectors (with the trigger's placeholders) invalidated when it fires.
        public let targets: [InvalidationSelector]
    }

    /// The rules, in declaration order.
    public private(set) var rules: [Rule] = []
    /// Domain events by name, each mapped to the selectors (with placeholders) it invalidates.
    public private(set) var events: [String: [InvalidationSelector]] = [:]

    /// No rules and no events.
    public init() {}

    /// Adds a rule. Targets may use only the trigger's parameters, and a prefix target may
    /// not end with a parameter (it would reach other values: `a_1` is a prefix of `a_10`);
    /// ``CacheStore`` refuses such rules when it opens.
    public mutating func rule(when trigger: InvalidationSelector, invalidate targets: [InvalidationSelector]) {
        rules.append(Rule(trigger: trigger, targets: targets))
    }

    /// Declares a domain event that invalidates `selectors` (filled with the event's
    /// parameters). A selector with an optional parameter (`vendor_detail_{tenant}_{id?}`) is
    /// skipped when the event is run without it.
    public mutating func event(_ name: String, invalidates selectors: [InvalidationSelector]) {
        events[name] = selectors
    }
}

/// ``InvalidationRules`` checked and parsed once, when a store opens, so an invalidation
/// does not parse templates again.
package struct CompiledInvalidationRules: Sendable {
    private struct Rule: Sendable {
        let trigger: SelectorTemplate
        let targets: [SelectorTemplate]
    }

    private let rules: [Rule]
    private let events: [String: [SelectorTemplate]]

    /// Parses `declared`; throws ``CacheError/invalidRule(reason:)`` for the first rule or
    /// event that is unsafe.
    package init(_ declared: InvalidationRules) throws {
        rules = try declared.rules.map { rule in
            let trigger = SelectorTemplate(rule.trigger)
            let available = Set(trigger.parameters)
            let targets = try rule.targets.map { target in
                let template = SelectorTemplate(target)
                if let missing = template.parameters.first(where: { !available.contains($0) }) {
                    throw CacheError.invalidRule(
                        reason: "target '\(target)' uses {\(missing)}, which trigger '\(rule.trigger)' does not capture"
                    )
                }
                try template.checkPrefixSafety()
                return template
            }
            return Rule(trigger: trigger, targets: targets)
        }
        events = try Dictionary(
            uniqueKeysWithValues: declared.events.map { name, selectors in
                do {
                    return (
                        name,
                        try selectors.map { selector in
                            let template = SelectorTemplate(selector)
                            try template.checkPrefixSafety()
                            return template
                        }
                    )
                } catch {
                    throw CacheError.invalidRule(reason: "event '\(name)': \(error)")
                }
            })
    }

    /// `selectors` plus everything the rules add, each once, with the selector that caused it.
    func expand(_ selectors: [InvalidationSelector]) -> [(InvalidationSelector, cause: InvalidationSelector?)] {
        var seen = Set<InvalidationSelector>()
        var queue: [(InvalidationSelector, cause: InvalidationSelector?)] = []
        for selector in selectors where seen.insert(selector).inserted { queue.append((selector, nil)) }
        var next = 0
        while next < queue.count {
            let fired = queue[next].0
            next += 1
            for rule in rules {
                for values in rule.trigger.matches(fired) {
                    for target in rule.targets {
                        guard let selector = target.fill(values), seen.insert(selector).inserted else { continue }
                        queue.append((selector, fired))
                    }
                }
            }
        }
        return queue
    }

    /// The selectors of event `name` filled with `parameters`: none for an event no rule
    /// declares; a selector that lacks only optional (`{name?}`) parameters is skipped.
    package func selectors(forEvent name: String, parameters: [String: String]) throws -> [InvalidationSelector] {
        guard let templates = events[name] else { return [] }
        return try templates.compactMap { template in
            if let filled = template.fill(parameters) { return filled }
            let missing = template.parameters.filter { parameters[$0] == nil }
            guard let required = missing.first(where: { !template.optionalParameters.contains($0) }) else {
                return nil
            }
            throw CacheError.invalidRule(reason: "event '\(name)' needs the parameter '\(required)'")
        }
    }
}
