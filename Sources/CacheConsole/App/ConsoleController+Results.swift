extension ConsoleController {
    /// Stores what reads brought back in the views they were for; results for views that
    /// were closed, or for an order or filter since changed, are dropped.
    mutating func apply(_ results: [LoadResult]) -> [ConsoleEffect] {
        if !results.isEmpty {
            let total = results.reduce(Duration.zero) { $0 + $1.duration }
            model.timings.queryMilliseconds = total.fractionalMilliseconds
        }
        var effects: [ConsoleEffect] = []
        for result in results {
            switch result.outcome {
            case .success(let data): effects += apply(data, for: result.request)
            case .failure(let error): failed(result.request, error)
            }
        }
        return effects
    }

    private mutating func apply(_ data: LoadedData, for request: LoadRequest) -> [ConsoleEffect] {
        switch (request, data) {
        case (.overview, .overview(let snapshot)):
            applyOverview(snapshot)
        case (.entries(let viewID, let generation, let page, let replacing, let request), .entries(let entries)):
            return applyEntries(
                entries, viewID: viewID, generation: generation, page: page, from: request.start, replacing: replacing)
        case (.detail(let viewID, _, let hex), .detail(let snapshot)):
            let width = size.columns
            update(viewID) { content in
                guard var view = content.detail, view.hex == hex else { return }
                view.snapshot = snapshot ?? view.snapshot
                view.isGone = snapshot == nil
                view.wrapValue(width: width)
                content.detail = view
            }
        case (.timeline(let viewID, _), .timeline(let snapshot)):
            update(viewID) { $0.timeline?.snapshot = snapshot }
        case (.statistics(let viewID, let window), .statistics(let snapshot)):
            update(viewID) { content in
                guard content.statistics?.window == window else { return }
                content.statistics?.snapshot = snapshot
            }
        case (.audit(let viewID), .audit(let entries)):
            update(viewID) { content in
                content.audit?.entries = entries
                if let audit = content.audit {
                    content.audit?.selection = min(audit.selection, max(0, entries.count - 1))
                }
            }
        default:
            break
        }
        return []
    }

    private mutating func failed(_ request: LoadRequest, _ error: ConsoleError) {
        if case .entries(let viewID, _, let page, _, _) = request {
            update(viewID) { _ = $0.entries?.window.loading.remove(page) }
        }
        report(error.description, isError: true)
    }

    /// Runs `body` on the content of the view with id `viewID`, wherever it is in the stack.
    mutating func update(_ viewID: Int, _ body: (inout View.Content) -> Void) {
        guard let index = model.views.firstIndex(where: { $0.id == viewID }) else { return }
        body(&model.views[index].content)
    }

    private mutating func applyOverview(_ snapshot: OverviewSnapshot) {
        let old = Dictionary(
            (model.overview?.namespaces ?? []).map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        model.overview = snapshot
        guard var view = model.views[0].content.overview else { return }
        for namespace in snapshot.namespaces {
            guard let before = old[namespace.name] else { continue }
            let shown = { (facts: NamespaceFacts) in
                [facts.entries, Int(facts.bytes), facts.expired, Int(((facts.hitRate ?? -1) * 1000).rounded())]
            }
            guard shown(before) != shown(namespace) else { continue }
            if Self.highlights(lastChange: view.lastChange[namespace.name], now: model.now) {
                view.changedAt[namespace.name] = model.now
            }
            view.lastChange[namespace.name] = model.now
        }
        let names = view.ordered(snapshot.namespaces).map(\.name)
        if let name = view.selectedName, let index = names.firstIndex(of: name) {
            view.selection = index
        } else {
            view.selection = min(view.selection, max(0, names.count - 1))
        }
        view.selectedName = names.indices.contains(view.selection) ? names[view.selection] : nil
        view.processSelection = min(view.processSelection, max(0, snapshot.processes.count - 1))
        view.scroll = OverviewScreen.scroll(view.scroll, selection: view.selection, height: listHeight)
        model.views[0].content.overview = view
    }

    private var listHeight: Int { OverviewScreen.listHeight(for: size) }

    private mutating func applyEntries(
        _ page: EntriesPage, viewID: Int, generation: Int, page index: Int, from start: PageToken?, replacing: Bool
    ) -> [ConsoleEffect] {
        guard let position = model.views.firstIndex(where: { $0.id == viewID }),
            var view = model.views[position].content.entries, view.generation == generation
        else { return [] }
        let changed = view.window.apply(
            page, at: index, from: start, replacing: replacing, height: EntriesScreen.listHeight(for: size))
        for (id, fields) in changed {
            if Self.highlights(lastChange: view.lastChange[id], now: model.now) { view.changedAt[id] = (model.now, fields) }
            view.lastChange[id] = model.now
        }
        view.isRankingPartial = page.isRankingPartial
        model.views[position].content.entries = view
        return position == model.views.count - 1 ? entriesPageLoads() : []
    }
}
