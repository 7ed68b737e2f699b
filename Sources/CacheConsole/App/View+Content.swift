extension View.Content {
    /// The Overview's state, when this is the Overview (settable through optional chaining).
    var overview: OverviewView? {
        get { if case .overview(let view) = self { view } else { nil } }
        set { if let newValue, case .overview = self { self = .overview(newValue) } }
    }

    /// The Entries view's state, when this is one.
    var entries: EntriesView? {
        get { if case .entries(let view) = self { view } else { nil } }
        set { if let newValue, case .entries = self { self = .entries(newValue) } }
    }

    /// The Detail view's state, when this is one.
    var detail: DetailView? {
        get { if case .detail(let view) = self { view } else { nil } }
        set { if let newValue, case .detail = self { self = .detail(newValue) } }
    }

    /// The timeline's state, when this is one.
    var timeline: TimelineView? {
        get { if case .timeline(let view) = self { view } else { nil } }
        set { if let newValue, case .timeline = self { self = .timeline(newValue) } }
    }

    /// The Statistics view's state, when this is one.
    var statistics: StatisticsView? {
        get { if case .statistics(let view) = self { view } else { nil } }
        set { if let newValue, case .statistics = self { self = .statistics(newValue) } }
    }

    /// The audit log's state, when this is one.
    var audit: AuditView? {
        get { if case .audit(let view) = self { view } else { nil } }
        set { if let newValue, case .audit = self { self = .audit(newValue) } }
    }

    /// The help's state, when this is one.
    var help: HelpView? {
        get { if case .help(let view) = self { view } else { nil } }
        set { if let newValue, case .help = self { self = .help(newValue) } }
    }

    /// Whether this is a view one switches to from anywhere (timeline, statistics, audit,
    /// help): switching from one to another replaces it rather than stacking up.
    var isAuxiliary: Bool {
        switch self {
        case .timeline, .statistics, .audit, .help: true
        case .overview, .entries, .detail: false
        }
    }

    /// The namespace the view is about, if it is about one.
    var namespace: String? {
        switch self {
        case .entries(let view): view.namespace
        case .detail(let view): view.namespace
        case .timeline(let view): view.namespace
        case .overview, .statistics, .audit, .help: nil
        }
    }
}
