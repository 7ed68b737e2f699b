import TerminalUI
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Carries out a ``ValueHandoff`` on the terminal: OSC 52 or a private file for the clipboard,
/// `$PAGER` for reading. The text is untrusted: it goes through files created 0600 and to the
/// pager as an argument (``ChildProcess``), never through a shell.
enum HandoffRunner {
    /// The most bytes sent by OSC 52 (many terminals drop longer sequences: 100,000 base64
    /// characters); longer text goes to a file.
    static let clipboardLimit = 74_994

    /// Does `handoff` on `terminal`; returns what to tell the operator.
    static func carryOut(
        _ handoff: ValueHandoff, on terminal: some Terminal,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> (text: String, isError: Bool) {
        let note = handoff.note.map { ", \($0)" } ?? ""
        switch handoff.destination {
        case .clipboard:
            if handoff.bytes.count <= clipboardLimit, terminal.copyToClipboard([UInt8](handoff.bytes)) {
                return ("Copied \(handoff.subject) to the clipboard\(note).", false)
            }
            let reason =
                handoff.bytes.count > clipboardLimit
                ? "too long for the terminal's clipboard"
                : "this terminal takes no OSC 52 clipboard; in tmux: set -g set-clipboard on"
            do {
                let path = try privateFile(holding: handoff.bytes, environment: environment)
                return ("Copied \(handoff.subject) to \(path)\(note) (\(reason)).", false)
            } catch {
                return ("Could not copy \(handoff.subject): \(error)", true)
            }
        case .pager:
            let path: String
            do {
                path = try privateFile(holding: handoff.bytes, environment: environment)
            } catch {
                return ("Could not show \(handoff.subject): \(error)", true)
            }
            defer { unlink(path) }
            let command = pagerCommand(environment: environment) + [path]
            var failure: ChildProcess.StartError?
            terminal.suspend {
                do throws(ChildProcess.StartError) {
                    _ = try ChildProcess.run(command, streams: .foreground)
                } catch {
                    failure = error
                }
            }
            if let failure { return ("Could not run the pager '\(command[0])': \(failure).", true) }
            return ("Showed \(handoff.subject) in \(command[0])\(note).", false)
        }
    }

    /// `$PAGER` split into words (no shell: quotes are not interpreted), `less` when unset.
    static func pagerCommand(environment: [String: String]) -> [String] {
        let words = (environment["PAGER"] ?? "").split(whereSeparator: \.isWhitespace).map(String.init)
        return words.isEmpty ? ["less"] : words
    }

    /// A new file only the user can read, in `$TMPDIR` (else `/tmp`), holding `bytes`.
    static func privateFile(holding bytes: Data, environment: [String: String]) throws -> String {
        let folder = environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array((folder.hasSuffix("/") ? folder : folder + "/").utf8CString.dropLast())
        template += Array("cachedeck-XXXXXX".utf8CString)
        let descriptor = mkstemp(&template)
        guard descriptor >= 0 else {
            throw ConsoleError("cannot create a file in \(folder): \(String(cString: strerror(errno)))")
        }
        let path = String(cString: template)
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        do {
            try handle.write(contentsOf: bytes)
            try handle.close()
        } catch {
            unlink(path)
            throw ConsoleError("cannot write \(path): \(error.localizedDescription)")
        }
        return path
    }
}
