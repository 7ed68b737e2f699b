import CacheCoreRedis
import Foundation

/// Passwords in `redis://user:password@host` arguments: hidden from other users' `ps` as soon
/// as the arguments are read (as MySQL's tools do; redis-cli only warns), and never printed.
/// `REDISCLI_AUTH` keeps a password off the command line altogether.
enum CommandLineSecrets {
    /// Overwrites the login of each URL argument with `*` in the process's own argument memory
    /// (what `ps` and `/proc/PID/cmdline` show), after Swift has made its copy.
    static func hideFromProcessList() {
        _ = CommandLine.arguments  // the copy the parser reads, made before the originals change
        for index in 1..<Int(CommandLine.argc) {
            guard let argument = CommandLine.unsafeArgv[index] else { continue }
            let bytes = UnsafeMutableBufferPointer(start: argument, count: strlen(argument))
            guard let range = loginRange(in: Array(bytes.map { UInt8(bitPattern: $0) })) else { continue }
            for position in range { bytes[position] = CChar(UInt8(ascii: "*")) }
        }
    }

    /// `text` with the login of every URL in it removed (a line an error or usage message
    /// printed, which may quote an argument).
    static func redacted(_ text: String) -> String {
        text.split(separator: " ", omittingEmptySubsequences: false)
            .map { RedisEndpoint.redacted(String($0)) }
            .joined(separator: " ")
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
