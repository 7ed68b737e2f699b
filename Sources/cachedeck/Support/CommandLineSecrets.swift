import Foundation
import Synchronization

/// Passwords in `redis://user:password@host` arguments: hidden from other users' `ps` as soon
/// as the arguments are read (as MySQL's tools do; redis-cli only warns), and masked in every
/// line the command prints. `REDISCLI_AUTH` keeps a password off the command line altogether.
enum CommandLineSecrets {
    /// The logins (`user:password`) found in the arguments.
    private static let logins = Mutex<[String]>([])

    /// Remembers the login of each URL argument, then overwrites it with `*` in the process's
    /// own argument memory (what `ps` and `/proc/PID/cmdline` show), after Swift has made the
    /// copy the parser reads.
    static func hideFromProcessList() {
        _ = CommandLine.arguments
        for index in 1..<Int(CommandLine.argc) {
            guard let argument = CommandLine.unsafeArgv[index] else { continue }
            let bytes = UnsafeMutableBufferPointer(start: argument, count: strlen(argument))
            let text = Array(bytes.map { UInt8(bitPattern: $0) })
            guard let range = loginRange(in: text) else { continue }
            let login = String(decoding: text[range], as: UTF8.self)
            logins.withLock { $0.append(login) }
            for position in range { bytes[position] = CChar(UInt8(ascii: "*")) }
        }
    }

    /// `text` with every login from the arguments (and its password alone) replaced by `***`:
    /// an error or usage line may quote an argument, whole or in part. (URLs in error texts
    /// are redacted where they are made; this is the net under them. Secrets shorter than 3
    /// characters are left, not to garble every line.)
    static func redacted(_ text: String) -> String {
        let secrets = logins.withLock { logins in
            logins.flatMap { login in [login] + (login.split(separator: ":", maxSplits: 1).dropFirst().map(String.init))
            }
        }
        return secrets.filter { $0.count >= 3 }.sorted { $0.count > $1.count }.reduce(text) {
            $0.replacingOccurrences(of: $1, with: "***")
        }
    }

    /// Where the user and password of a URL are: between `://` and the last `@`.
    private static func loginRange(in bytes: [UInt8]) -> Range<Int>? {
        let scheme = Array("://".utf8)
        guard let start = bytes.indices.first(where: { bytes[$0...].starts(with: scheme) }).map({ $0 + 3 }),
            let at = bytes[start...].lastIndex(of: UInt8(ascii: "@")), at > start
        else { return nil }
        return start..<at
    }
}
