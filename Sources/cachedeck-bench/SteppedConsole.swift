import CacheConsole
import Foundation
import TerminalUI

/// The controller, the data source and the last frame, stepped by hand.
struct SteppedConsole {
    var controller: ConsoleController
    let source: any ConsoleDataSource
    var previous: ScreenBuffer?
    var reads = 0
    var readMilliseconds = 0.0
    private let clock = ContinuousClock()

    init(source: any ConsoleDataSource, size: Size) {
        self.source = source
        controller = ConsoleController(
            location: source.location, isReadOnly: source.isReadOnly, isKeyspace: source.isKeyspace,
            themeName: "default",
            settings: ConsoleSettings(), size: size, now: Int64(Date().timeIntervalSince1970 * 1000))
    }

    /// Renders and diffs a frame, as the runtime's draw does.
    mutating func frame() -> ScreenBuffer {
        let buffer = controller.render()
        _ = Self.changedCells(from: previous, to: buffer)
        previous = buffer
        return buffer
    }

    /// Presses `key`, returns nanoseconds from the key to its frame, then runs the reads it
    /// asked for (untimed) and draws what they brought.
    mutating func timedPress(_ key: Key) -> Double {
        let started = clock.now
        let effects = controller.handle(.input(.key(key)))
        _ = frame()
        let elapsed = clock.now - started
        perform(effects)
        return elapsed.nanoseconds
    }

    /// Lets time pass to `now` (the runtime's tick) and carries out the reads it asks for.
    mutating func tick(now: Int64) {
        perform(controller.handle(.tick(now: now)))
        _ = frame()
    }

    mutating func press(_ key: Key) {
        _ = timedPress(key)
    }

    mutating func type(_ text: String) {
        for character in text { press(.character(character)) }
    }

    /// Carries out effects at once, drawing a frame after each message.
    mutating func perform(_ effects: [ConsoleEffect]) {
        for effect in effects {
            let started = clock.now
            guard let message = EffectPerformer.perform(effect, on: source) else { continue }
            reads += 1
            readMilliseconds += (clock.now - started).fractionalMilliseconds
            let next = controller.handle(message)
            _ = frame()
            perform(next)
        }
    }

    /// The cells that differ between two frames (all of them without a previous frame).
    static func changedCells(from previous: ScreenBuffer?, to next: ScreenBuffer) -> Int {
        guard let previous, previous.size == next.size else { return next.size.columns * next.size.rows }
        var changed = 0
        for row in 0..<next.size.rows {
            for (old, new) in zip(previous.cells(inRow: row), next.cells(inRow: row)) where old != new { changed += 1 }
        }
        return changed
    }
}
