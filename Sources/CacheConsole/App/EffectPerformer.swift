import TerminalUI
import CacheCore

/// Carries out the effects that touch the data source, turning each into the message the
/// controller expects. The runtime calls it on background threads; tests call it directly.
package enum EffectPerformer {
    /// The message `effect` produces on `source`; `nil` for effects the runtime handles
    /// itself (theme, mouse, redraw, clipboard and pager, quit). A running action also hands its progress to
    /// `post` after every batch.
    package static func perform(
        _ effect: ConsoleEffect, on source: any ConsoleDataSource,
        post: @escaping @Sendable (ConsoleMessage) -> Void = { _ in }
    ) -> ConsoleMessage? {
        switch effect {
        case .load(let requests):
            return .loaded(requests.map { load($0, on: source) })
        case .refresh(let loads, let force):
            let changed: Bool
            do {
                changed = try source.hasChanged()
            } catch {
                return .failed(describe(error))
            }
            guard changed || force, !loads.isEmpty else { return .refreshed(changed: changed, results: []) }
            return .refreshed(changed: changed, results: loads.map { load($0, on: source) })
        case .prepare(let request):
            return attempt { .prepared(try source.prepare(request)) }
        case .run(let pending, let answer, let stop):
            return attempt {
                .ran(
                    try source.run(pending, answer: answer) { progress in
                        post(.progress(progress))
                        return !stop.isStopped
                    })
            }
        case .undo(let auditID):
            return attempt { .undone(auditID: auditID, outcome: try source.undo(auditID: auditID)) }
        case .export(let request):
            return attempt { .exported(count: try source.export(request), path: request.path) }
        case .compact(let stop):
            return attempt {
                .compacted(
                    try source.compact { progress in
                        post(.compacting(progress))
                        return !stop.isStopped
                    })
            }
        case .applyTheme, .setMouseReporting, .redrawAll, .handOff, .quit:
            return nil
        }
    }

    private static func load(_ request: LoadRequest, on source: any ConsoleDataSource) -> LoadResult {
        let clock = ContinuousClock()
        let started = clock.now
        let outcome: Result<LoadedData, ConsoleError>
        do {
            outcome = .success(try request.perform(on: source))
        } catch {
            outcome = .failure(describe(error))
        }
        return LoadResult(request: request, outcome: outcome, duration: clock.now - started)
    }

    private static func attempt(_ body: () throws -> ConsoleMessage) -> ConsoleMessage {
        do {
            return try body()
        } catch {
            return .failed(describe(error))
        }
    }

    /// Any error as one line.
    static func describe(_ error: any Error) -> ConsoleError {
        if let error = error as? ConsoleError { return error }
        let text = String(describing: error)
        return ConsoleError(text.split(whereSeparator: \.isNewline).joined(separator: " "))
    }
}
