import CacheCore

@testable import CacheConsole
import TerminalUI

/// Drives a ``ConsoleController`` the way the runtime does, but synchronously: each effect
/// runs on the data source at once and its message goes straight back. Query times are
/// pinned to 1 ms and no frame time is reported, so screens are the same every run.
///
/// The source is the ``FakeDataSource`` unless another is given (a ``StoreDataSource`` over a
/// real file, for instance); the console's clock starts at `now` either way.
struct ConsoleHarness<Source: ConsoleDataSource> {
    var controller: ConsoleController
    let source: Source
    var now: Int64
    /// Effects the harness did not carry out (theme, mouse, redraw, quit), in order.
    var sideEffects: [ConsoleEffect] = []

    init(
        columns: Int = 80, rows: Int = 24, source: Source = FakeDataSource(), now: Int64 = FakeDataSource.now,
        settings: ConsoleSettings = ConsoleSettings(), notices: [String] = []
    ) {
        self.source = source
        self.now = now
        controller = ConsoleController(
            location: source.location, isReadOnly: source.isReadOnly, themeName: "default", settings: settings,
            size: Size(columns: columns, rows: rows), now: now)
        run(controller.start(notices: notices))
    }

    /// The model, for checks that are not about the screen.
    var model: ConsoleModel { controller.model }

    /// The screen as text.
    func screen(glyphs: GlyphSet = .unicode) -> String {
        controller.render(options: RenderOptions(glyphs: glyphs)).textSnapshot()
    }

    /// Presses keys in order.
    mutating func press(_ keys: Key...) {
        for key in keys { handle(.input(.key(key))) }
    }

    /// Types each character as a key.
    mutating func type(_ text: String) {
        for character in text { handle(.input(.key(.character(character)))) }
    }

    /// Resizes the terminal.
    mutating func resize(columns: Int, rows: Int) {
        handle(.input(.resize(Size(columns: columns, rows: rows))))
    }

    /// Lets `milliseconds` pass and ticks.
    mutating func wait(_ milliseconds: Int64) {
        now += milliseconds
        handle(.tick(now: now))
    }

    mutating func handle(_ message: ConsoleMessage) {
        run(controller.handle(message))
    }

    private mutating func run(_ effects: [ConsoleEffect]) {
        for effect in effects {
            guard let message = EffectPerformer.perform(effect, on: source) else {
                sideEffects.append(effect)
                continue
            }
            handle(Self.pinned(message))
        }
    }

    private static func pinned(_ message: ConsoleMessage) -> ConsoleMessage {
        func pin(_ results: [LoadResult]) -> [LoadResult] {
            results.map {
                LoadResult(request: $0.request, outcome: $0.outcome, duration: .milliseconds(1) / max(1, results.count))
            }
        }
        switch message {
        case .loaded(let results): return .loaded(pin(results))
        case .refreshed(let changed, let results): return .refreshed(changed: changed, results: pin(results))
        default: return message
        }
    }
}

extension ConsoleHarness where Source == FakeDataSource {
    /// The Detail view of the first product (`product-0000`).
    static func detail(columns: Int = 80, rows: Int = 24) -> ConsoleHarness {
        var harness = ConsoleHarness(columns: columns, rows: rows)
        harness.press(.down, .enter, .enter)
        return harness
    }
}
