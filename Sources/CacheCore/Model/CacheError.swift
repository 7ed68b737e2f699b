/// The errors of CacheCore's stores and caches. Each case reads as one line a person
/// understands; no SQLite error type leaves the library (a SQLite failure is one of these
/// cases, and ``sqlite(code:message:)``'s message names the failing statement for logs).
///
/// A few calls throw other errors, each documented where it is thrown:
/// - ``Inspector`` calls throw ``InspectorError`` (unknown namespace, foreign cursor) and
///   parsing a filter throws ``EntryFilterError``;
/// - loaders (``Cache/value(for:refreshAfter:orLoad:)``, ``Cache/read(_:refreshAfter:orLoad:)``)
///   rethrow the loader's own error when there is no stale value to serve;
/// - ``AsyncCache`` and ``AsyncCacheStore`` throw `CancellationError` for a task cancelled
///   before its call started.
///
/// A stored value that no longer decodes is not an error: a typed read treats it as a miss
/// (logged, and counted in ``CacheStore/decodeFailureCount``).
public enum CacheError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file could not be opened or created.
    case cannotOpen(path: String, reason: String)
    /// The file exists but is not a CacheDeck cache (not a database, corrupt, or another schema).
    case notACacheFile(path: String, reason: String)
    /// The file is a cache with damaged pages (SQLite's "database disk image is malformed"). A
    /// store that may quarantine salvages it on open; ``CacheStore/salvage(path:options:)``
    /// does it on demand.
    case damaged(path: String, reason: String)
    /// The file, its `-wal` or its `-shm` may have been written by another user (see
    /// ``FileTrust``); nothing was read from it.
    case untrusted(path: String, reason: String)
    /// The file was written by a newer CacheDeck format; it is left untouched.
    case newerFormat(path: String, found: Int, supported: Int)
    /// A write was refused because the store or file is read-only.
    case readOnly(path: String)
    /// A value or key could not be encoded.
    case encodingFailed(namespace: String, key: String, reason: String)
    /// Another connection held the file locked for longer than the busy timeout.
    case busy(path: String)
    /// The disk (or the file's size limit) is full; nothing already stored was lost.
    case diskFull(path: String)
    /// Any other SQLite failure, with its result code and message (followed by the failing
    /// statement's SQL when there was one: `no such table: x (in: SELECT …)`).
    case sqlite(code: Int32, message: String)
    /// An invalidation rule or event is unsafe or unknown, or an event lacks a parameter.
    case invalidRule(reason: String)
    /// A restore was asked for an action that cannot be undone.
    case nothingToRestore(reason: String)
    /// The store cannot do this the way a ``CacheStore`` would (a `RedisStore` refusing a
    /// file-only feature); nothing was changed. See docs/REDIS.md for the list.
    case unsupported(feature: String, reason: String)
    /// The cache server could not be reached, stopped answering, or the connection dropped.
    case unreachable(endpoint: String, reason: String)
    /// The cache server refused the user name or password.
    case authenticationFailed(endpoint: String, reason: String)
    /// The cache server is out of memory (`maxmemory` with `noeviction`); nothing was stored.
    case serverOutOfMemory(endpoint: String, reason: String)
    /// The cache server answered a command with an error.
    case serverError(endpoint: String, message: String)

    /// A one-line explanation.
    public var description: String {
        switch self {
        case .cannotOpen(let path, let reason): "cannot open \(path): \(reason)"
        case .notACacheFile(let path, let reason): "\(path) is not a CacheDeck cache file: \(reason)"
        case .damaged(let path, let reason): "\(path) is damaged: \(reason)"
        case .untrusted(let path, let reason): "refusing \(path): \(reason)"
        case .newerFormat(let path, let found, let supported):
            "\(path) uses cache format \(found), newer than the supported \(supported); upgrade CacheDeck to open it"
        case .readOnly(let path): "\(path) is read-only: writes are refused"
        case .encodingFailed(let namespace, let key, let reason): "cannot encode \(namespace)/\(key): \(reason)"
        case .busy(let path): "\(path) stayed locked by another connection past the busy timeout"
        case .diskFull(let path): "disk full while writing \(path); nothing stored was lost"
        case .sqlite(let code, let message): "SQLite error \(code): \(message)"
        case .invalidRule(let reason): "invalid invalidation rule: \(reason)"
        case .nothingToRestore(let reason): "cannot restore: \(reason)"
        case .unsupported(let feature, let reason): "\(feature) is not supported: \(reason)"
        case .unreachable(let endpoint, let reason): "cannot reach \(endpoint): \(reason)"
        case .authenticationFailed(let endpoint, let reason): "\(endpoint) refused the credentials: \(reason)"
        case .serverOutOfMemory(let endpoint, let reason):
            "\(endpoint) is out of memory (maxmemory); nothing was stored: \(reason)"
        case .serverError(let endpoint, let message): "\(endpoint) answered with an error: \(message)"
        }
    }
}

extension CacheError {
    /// Runs `body`, turning a SQLite failure on `path` into a ``CacheError``.
    static func mappingSQLite<T>(path: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as SQLiteError {
            throw CacheError(error, path: path)
        }
    }

    /// Maps a SQLite failure on `path` to the case a caller can act on.
    init(_ error: SQLiteError, path: String) {
        if error.isBusy {
            self = .busy(path: path)
        } else if error.isDiskFull {
            self = .diskFull(path: path)
        } else if error.isReadOnly {
            self = .readOnly(path: path)
        } else if error.isCorrupt {
            self = .damaged(path: path, reason: error.message)
        } else if error.isNotADatabase {
            self = .notACacheFile(path: path, reason: error.message)
        } else if error.isCannotOpen {
            self = .cannotOpen(path: path, reason: error.message)
        } else if error.isIntegerOverflow {
            self = .sqlite(
                code: error.extendedCode,
                message:
                    "\(path) holds numbers out of range: adding them up overflows (a check of the file names the rows)")
        } else {
            self = .sqlite(code: error.extendedCode, message: error.messageWithStatement)
        }
    }
}
