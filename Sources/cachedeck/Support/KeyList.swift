import Foundation

/// Keys one per line, as `--keys-from` reads them: from a file, or standard input for `-`.
///
/// For lists too long for the command line: the argument parser's time grows with the square
/// of the arguments (8,000 `--key`s took 4.3 s to parse, 40,000 minutes).
enum KeyList {
    /// A longer list is refused rather than read into memory.
    static let maximumBytes = 256 << 20

    /// The non-empty lines of `path` (`\r\n` endings too); one clear error for an unreadable,
    /// oversized, empty or non-UTF-8 list.
    static func read(from path: String) throws -> [String] {
        let name = path == "-" ? "standard input" : path
        guard let handle = path == "-" ? FileHandle.standardInput : FileHandle(forReadingAtPath: path) else {
            throw Failure("--keys-from: cannot read \(name)")
        }
        var data = Data()
        while let chunk = try readChunk(of: handle, name: name), !chunk.isEmpty {
            data.append(chunk)
            if data.count > maximumBytes {
                throw Failure("--keys-from: \(name) holds more than \(maximumBytes >> 20) MB of keys; split the list")
            }
        }
        var keys: [String] = []
        for (index, line) in data.split(separator: 0x0A, omittingEmptySubsequences: false).enumerated() {
            let bytes = line.last == 0x0D ? line.dropLast() : line
            guard !bytes.isEmpty else { continue }
            guard let key = String(validating: bytes, as: UTF8.self) else {
                throw Failure("--keys-from: line \(index + 1) of \(name) is not UTF-8 text (type such keys as ls shows them)")
            }
            keys.append(key)
        }
        guard !keys.isEmpty else { throw Failure("--keys-from: \(name) lists no keys") }
        return keys
    }

    /// The next megabyte; a read that fails (a folder, a device error) is one line naming why.
    private static func readChunk(of handle: FileHandle, name: String) throws -> Data? {
        do {
            return try handle.read(upToCount: 1 << 20)
        } catch {
            let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError
            let reason = underlying.map { ": " + String(cString: strerror(Int32($0.code))) } ?? ""
            throw Failure("--keys-from: cannot read \(name)\(reason)")
        }
    }
}
