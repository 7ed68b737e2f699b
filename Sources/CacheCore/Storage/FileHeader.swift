import Foundation

/// The size of a file and what its first 100 bytes (the SQLite header) say about its pages,
/// read directly from the file: O(1), so every open can afford it.
///
/// SQLite refuses a file shorter than the page count its header records ("corrupt"), but it
/// reads a file cut inside its last page as if the missing tail were zeros. This is what tells
/// both apart from other damage, in words a person understands.
struct FileHeader: Equatable {
    /// The file's size in bytes.
    let fileSize: Int64
    /// The header's bytes as read (at most 100).
    let bytes: [UInt8]
    /// Whether the file starts with SQLite's magic string (as far as it goes).
    let hasMagic: Bool
    /// The page size, when the header is complete and valid.
    let pageSize: Int64?
    /// The page count the header records, when SQLite keeps it valid (version-valid-for
    /// equals the change counter, as every SQLite since 3.7.0 writes).
    let pageCount: Int64?

    private static let magic = Array("SQLite format 3\0".utf8)
    private static let length = 100

    /// Reads the header of `path`; `nil` when the file cannot be opened or read.
    static func read(_ path: String) -> FileHeader? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return nil }
        var bytes = [UInt8](repeating: 0, count: length)
        let count = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, length, 0) }
        guard count >= 0 else { return nil }
        return FileHeader(fileSize: Int64(info.st_size), bytes: Array(bytes.prefix(count)))
    }

    init(fileSize: Int64, bytes: [UInt8]) {
        self.fileSize = fileSize
        self.bytes = bytes
        hasMagic = !bytes.isEmpty && bytes.prefix(Self.magic.count).elementsEqual(Self.magic.prefix(bytes.count))
        guard hasMagic, bytes.count == Self.length else {
            pageSize = nil
            pageCount = nil
            return
        }
        let rawSize = Int64(bytes[16]) << 8 | Int64(bytes[17])
        let size = rawSize == 1 ? 65_536 : rawSize
        let valid = size >= 512 && size <= 65_536 && size & (size - 1) == 0
        pageSize = valid ? size : nil
        let counter = Self.integer(bytes, at: 24)
        let count = Self.integer(bytes, at: 28)
        pageCount = valid && counter == Self.integer(bytes, at: 92) && count > 0 ? count : nil
    }

    /// Why a file SQLite found corrupt looks truncated, or `nil` when its size does not say.
    /// A cut inside a page is named as such first (it is certain, whatever the header says).
    var truncation: String? {
        if hasMagic && pageSize == nil && fileSize < Int64(Self.length) {
            return "it is truncated: \(fileSize) bytes, shorter than a SQLite header"
        }
        if let partialPage { return partialPage }
        if let pageSize, let pageCount, fileSize < pageCount * pageSize {
            return "it is truncated: \(fileSize) of the \(pageCount * pageSize) bytes its header records"
        }
        return nil
    }

    /// Why the file ends inside a page (SQLite only ever writes whole pages), or `nil`.
    ///
    /// Unlike a page count larger than the file, which a checkpoint in progress shows for a
    /// moment (it writes page 1 first), a partial page never appears in a healthy file.
    var partialPage: String? {
        guard let pageSize, fileSize % pageSize != 0 else { return nil }
        return "it is truncated: \(fileSize) bytes is not a whole number of \(pageSize)-byte pages"
    }

    private static func integer(_ bytes: [UInt8], at offset: Int) -> Int64 {
        bytes[offset..<offset + 4].reduce(Int64(0)) { $0 << 8 | Int64($1) }
    }
}
