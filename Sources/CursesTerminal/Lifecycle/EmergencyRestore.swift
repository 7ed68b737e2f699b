import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// Restores the terminal when the process dies by a signal while curses owns the screen:
/// SIGHUP, SIGINT, SIGQUIT and SIGTERM, and the crash signals (SIGSEGV, SIGBUS, SIGILL — a
/// Swift runtime trap on x86-64 —, SIGFPE, SIGABRT, SIGTRAP — a trap on arm64).
///
/// The handler does what `endwin` does for the terminal, but only with async-signal-safe
/// calls, because a crash can strike inside curses or `malloc` where `endwin` would deadlock
/// or crash again: it writes the terminal's own reset strings (leave the alternate screen,
/// show the cursor, plain attributes, keypad and mouse reporting off), restores the saved
/// terminal modes with `tcsetattr`, and points stderr back at the terminal so the crash report
/// is seen. Then it reinstates the previous disposition (the default, or the Swift runtime's
/// backtracer) and lets the signal take its course: a fault re-executes and faults again; a
/// signal sent by a process is raised again. The process still dies of the same signal.
enum EmergencyRestore {
    /// Signals that end the process by default.
    static let terminationSignals: [Int32] = [SIGHUP, SIGINT, SIGQUIT, SIGTERM]
    /// Signals a crash raises.
    static let crashSignals: [Int32] = [SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP]

    /// Installs the handlers, remembering the previous ones. Call before curses starts, so
    /// that curses keeps its own hands off SIGINT and SIGTERM.
    static func install() {
        _ = state  // initialize the storage outside any signal handler
        var action = sigaction()
        action.__sigaction_handler.sa_sigaction = handleSignal
        action.sa_flags = SA_SIGINFO | SA_ONSTACK
        sigemptyset(&action.sa_mask)
        for signal in terminationSignals + crashSignals { sigaddset(&action.sa_mask, signal) }
        for signal in terminationSignals + crashSignals {
            sigaction(signal, &action, state.previous + Int(signal))
            if terminationSignals.contains(signal) && isIgnored(state.previous[Int(signal)]) {
                sigaction(signal, state.previous + Int(signal), nil)  // e.g. under nohup: keep ignoring it
            }
        }
        installAlternateStackOnMainThread()
    }

    /// Puts the previous handlers back.
    static func uninstall() {
        for signal in terminationSignals + crashSignals {
            sigaction(signal, state.previous + Int(signal), nil)
        }
    }

    /// Whether `action` is `SIG_IGN` (a macro Swift cannot import: handler value 1).
    private static func isIgnored(_ action: sigaction) -> Bool {
        action.sa_flags & SA_SIGINFO == 0 && unsafeBitCast(action.__sigaction_handler.sa_handler, to: Int.self) == 1
    }

    /// Arms the handler: from now on a signal restores the terminal on `descriptor` to
    /// `modes` after writing `reset`, and points stderr back at `stderrCopy` (if not -1).
    static func arm(descriptor: Int32, modes: termios, reset: [UInt8], stderrCopy: Int32) {
        armed.store(false, ordering: .sequentiallyConsistent)
        let count = min(reset.count, RestoreState.capacity)
        reset.withUnsafeBufferPointer { bytes in
            if let base = bytes.baseAddress { state.bytes.update(from: base, count: count) }
        }
        state.count = count
        state.descriptor = descriptor
        state.modes = modes
        state.stderrCopy = stderrCopy
        armed.store(true, ordering: .sequentiallyConsistent)
    }

    /// Disarms the handler (the terminal is being restored the ordinary way).
    static func disarm() {
        armed.store(false, ordering: .sequentiallyConsistent)
    }

    /// The restore itself; async-signal-safe, and done at most once per arming.
    fileprivate static func restoreFromSignal() {
        guard armed.exchange(false, ordering: .sequentiallyConsistent) else { return }
        let snapshot = state
        _ = write(snapshot.descriptor, snapshot.bytes, snapshot.count)
        var modes = snapshot.modes
        _ = tcsetattr(snapshot.descriptor, TCSANOW, &modes)
        if snapshot.stderrCopy >= 0 { _ = dup2(snapshot.stderrCopy, 2) }
    }

    /// Whether `signal` with `code` is a fault the kernel raised at an instruction, which
    /// faults again when the handler returns (so the previous handler sees the real context).
    fileprivate static func isInstructionFault(_ signal: Int32, code: Int32) -> Bool {
        code > 0 && (signal == SIGSEGV || signal == SIGBUS || signal == SIGILL || signal == SIGFPE)
    }

    /// A signal stack for the main thread, so that a stack overflow there can still restore
    /// the terminal; kept for the life of the process, installed once, never over one that
    /// exists (the Swift runtime may have set one up).
    private static func installAlternateStackOnMainThread() {
        guard Thread.isMainThread else { return }
        var current = stack_t()
        guard sigaltstack(nil, &current) == 0, current.ss_flags & Int32(SS_DISABLE) != 0 else { return }
        let size = 64 * 1024
        var stack = stack_t()
        stack.ss_sp = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 16)
        stack.ss_size = size
        stack.ss_flags = 0
        sigaltstack(&stack, nil)
    }

    /// Everything the handler reads, in memory that never moves or reallocates.
    fileprivate struct RestoreState {
        static let capacity = 512
        var descriptor: Int32 = -1
        var modes = termios()
        var bytes = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        var count = 0
        var stderrCopy: Int32 = -1
        var previous = UnsafeMutablePointer<sigaction>.allocate(capacity: 32)  // signals 1–31
    }

    nonisolated(unsafe) fileprivate static var state = RestoreState()
    private static let armed = Atomic<Bool>(false)
}

/// The handler for every signal ``EmergencyRestore`` installs.
private let handleSignal: @convention(c) (Int32, UnsafeMutablePointer<siginfo_t>?, UnsafeMutableRawPointer?) -> Void = {
    signal, info, _ in
    EmergencyRestore.restoreFromSignal()
    sigaction(signal, EmergencyRestore.state.previous + Int(signal), nil)
    if !EmergencyRestore.isInstructionFault(signal, code: info?.pointee.si_code ?? 0) {
        raise(signal)
    }
}
