import TerminalUI
import Dispatch
import Foundation

/// The console's loop: draws a frame, waits for input (or a tick, or data), hands every
/// message to the ``ConsoleController`` and carries out its effects. Reads run on one
/// background queue (a ``ReadQueue``, which skips reads overtaken by keystrokes) and actions
/// on another, so neither a slow query nor a long purge ever holds up a keystroke; their
/// results come back through an inbox the loop drains.
package final class ConsoleRuntime {
    /// How often the clock ticks: refresh checks, banners and relative times.
    static let tick = Duration.milliseconds(250)
    /// How long to wait for input while background work is under way.
    static let busyPoll = Duration.milliseconds(15)

    private let source: any ConsoleDataSource
    private var controller: ConsoleController
    private let options: RenderOptions
    private let idleSignalPath: String?
    private let inbox: Inbox
    private let reads: ReadQueue
    private let actions = DispatchQueue(label: "cachedeck.console.actions", qos: .userInitiated)
    private var quitting = false
    private var frames = 0
    private var signalledFrame = -1

    /// A runtime for `controller` over `source`. When `idleSignalPath` is set, the frame
    /// number is written there each time the console is idle with a frame drawn (tests wait
    /// on it instead of sleeping).
    package init(
        source: any ConsoleDataSource, controller: ConsoleController, options: RenderOptions,
        idleSignalPath: String? = nil
    ) {
        self.source = source
        self.controller = controller
        self.options = options
        self.idleSignalPath = idleSignalPath
        inbox = Inbox()
        reads = ReadQueue(inbox: inbox)
    }

    /// Runs until the operator quits. `notices` (broken key or theme files) show in the
    /// status line.
    package func run(on terminal: some Terminal, notices: [String] = []) {
        let clock = ContinuousClock()
        perform(controller.handle(.input(.resize(terminal.size))), on: terminal)
        perform(controller.handle(.tick(now: Self.now())), on: terminal)
        perform(controller.start(notices: notices), on: terminal)
        var nextTick = clock.now + Self.tick
        var dirty = true
        while !quitting {
            reads.startNext(on: source) { controller.stillWanted($0) }
            if dirty {
                draw(on: terminal, clock: clock)
                dirty = false
            }
            signalIdle()
            let timeout =
                inbox.isBusy ? min(Self.busyPoll, max(.zero, nextTick - clock.now)) : max(.zero, nextTick - clock.now)
            if let event = terminal.nextEvent(timeout: timeout) {
                var events = [event]
                while events.count < 64, let more = terminal.nextEvent(timeout: .zero) { events.append(more) }
                for event in events where !quitting { perform(controller.handle(.input(event)), on: terminal) }
                dirty = true
            }
            for message in inbox.take() where !quitting {
                perform(controller.handle(message), on: terminal)
                dirty = true
            }
            if clock.now >= nextTick {
                perform(controller.handle(.tick(now: Self.now())), on: terminal)
                nextTick = clock.now + Self.tick
                dirty = true
            }
        }
    }

    private func draw(on terminal: some Terminal, clock: ContinuousClock) {
        let started = clock.now
        terminal.draw(controller.render(options: options))
        controller.noteFrame(milliseconds: (clock.now - started).fractionalMilliseconds)
        frames += 1
    }

    private func perform(_ effects: [ConsoleEffect], on terminal: some Terminal) {
        for effect in effects {
            switch effect {
            case .quit: quitting = true
            case .applyTheme(let theme): terminal.theme = theme
            case .setMouseReporting(let on): terminal.mouseReporting = on
            case .redrawAll: terminal.redrawAll()
            case .handOff(let handoff):
                let outcome = HandoffRunner.carryOut(handoff, on: terminal)
                perform(controller.handle(.notice(outcome.text, isError: outcome.isError)), on: terminal)
            case .load, .refresh:
                reads.submit(effect)
            case .prepare, .run, .undo, .export, .compact:
                inbox.started()
                actions.async { [source, inbox] in
                    inbox.finished(EffectPerformer.perform(effect, on: source) { inbox.post($0) })
                }
            }
        }
    }

    private func signalIdle() {
        guard let idleSignalPath, frames != signalledFrame, !inbox.isBusy else { return }
        signalledFrame = frames
        try? Data("\(frames)\n".utf8).write(to: URL(fileURLWithPath: idleSignalPath), options: .atomic)
    }

    /// The time, in milliseconds since the epoch.
    package static func now() -> Int64 {
        Int64((Date().timeIntervalSince1970 * 1000).rounded(.down))
    }
}
