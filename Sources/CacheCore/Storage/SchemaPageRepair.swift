/// Page 1's b-tree header (bytes 100–111, right after the file header) and its cell pointers.
/// SQLite finds every table through them, so damage there hides tables whose own pages are
/// intact. The cells themselves are packed at the end of the page from its content start:
/// reading them in order gives back the header and pointers that list them.
enum SchemaPageRepair {
    private static let interior: UInt8 = 0x05
    private static let leaf: UInt8 = 0x0D

    /// Whether page 1's b-tree header, as read, cannot be right: an unknown page type, a
    /// content start or cell pointer outside the page, or a child page past the file's end.
    static func looksDamaged(_ page: [UInt8], usable: Int, pageCount: Int) -> Bool {
        guard page.count >= usable, usable > 112 else { return true }
        let type = page[100]
        guard type == interior || type == leaf else { return true }
        let pointers = type == interior ? 112 : 108
        let count = integer16(page, 103)
        let start = contentStart(page)
        guard pointers + 2 * count <= start, start <= usable else { return true }
        if type == interior, !(2...max(2, pageCount)).contains(Int(integer32(page, 108))) { return true }
        return (0..<count).contains { index in
            !(start..<usable).contains(integer16(page, pointers + 2 * index))
        }
    }

    /// Page 1 rebuilt from its cells, one image per plausible layout, likeliest first (the
    /// caller tries each): the recorded type and content start where they make sense, then
    /// the others; for an interior page, the recorded right child, then every leaf page that
    /// holds schema records (`page(n)` reads page n, 1-based).
    static func candidates(
        _ page: [UInt8], usable: Int, pageCount: Int, page read: (Int) -> [UInt8]?
    ) -> [[UInt8]] {
        guard page.count >= usable, usable > 112 else { return [] }
        let types = page[100] == leaf ? [leaf, interior] : [interior, leaf]
        var images: [[UInt8]] = []
        for type in types {
            for start in contentStarts(page, type: type, usable: usable) {
                guard let cells = cells(of: page, type: type, from: start, usable: usable),
                    !cells.isEmpty || type == leaf
                else { continue }
                let pointers = type == interior ? 112 : 108
                guard pointers + 2 * cells.count <= start else { continue }
                var image = page
                image[100] = type
                put16(0, in: &image, at: 101)
                put16(cells.count, in: &image, at: 103)
                put16(start == 65_536 ? 0 : start, in: &image, at: 105)
                image[107] = 0
                for (index, cell) in cells.sorted(by: { $0.key < $1.key }).enumerated() {
                    put16(cell.offset, in: &image, at: pointers + 2 * index)
                }
                guard type == interior else {
                    images.append(image)
                    continue
                }
                let children = Set(cells.map(\.child))
                for right in rightChildren(page, children: children, pageCount: pageCount, page: read) {
                    put32(UInt32(right), in: &image, at: 108)
                    images.append(image)
                }
            }
        }
        return images
    }

    // MARK: Cells

    private struct Cell {
        let offset: Int
        let key: Int64
        let child: Int
    }

    /// The page's cells read in order from `start` to the end of the usable space, or `nil`
    /// when they do not tile it exactly (a freeblock, a fragment, or the wrong start or type).
    private static func cells(of page: [UInt8], type: UInt8, from start: Int, usable: Int) -> [Cell]? {
        var offset = start
        var cells: [Cell] = []
        while offset < usable {
            let cell: Cell
            let size: Int
            if type == interior {
                guard offset + 4 < usable, let key = varint(page, offset + 4, limit: usable) else { return nil }
                cell = Cell(offset: offset, key: key.value, child: Int(integer32(page, offset)))
                size = 4 + key.length
            } else {
                guard let payload = varint(page, offset, limit: usable),
                    let key = varint(page, offset + payload.length, limit: usable), payload.value >= 0
                else { return nil }
                let local = localPayload(Int(clamping: payload.value), usable: usable)
                let overflow = local < payload.value ? 4 : 0
                cell = Cell(offset: offset, key: key.value, child: 0)
                size = payload.length + key.length + local + overflow
            }
            guard size > 0, offset + size <= usable else { return nil }
            cells.append(cell)
            offset += size
        }
        return cells
    }

    /// How much of a table leaf cell's payload stays on the page (SQLite's file format, 1.6).
    private static func localPayload(_ payload: Int, usable: Int) -> Int {
        let most = usable - 35
        guard payload > most else { return payload }
        let least = (usable - 12) * 32 / 255 - 23
        let kept = least + (payload - least) % (usable - 4)
        return kept <= most ? kept : least
    }

    /// The recorded content start when it is inside the page, then the smallest recorded cell
    /// pointer (one of the two survives damage to a 4-byte run).
    private static func contentStarts(_ page: [UInt8], type: UInt8, usable: Int) -> [Int] {
        let pointers = type == interior ? 112 : 108
        var starts: [Int] = []
        let recorded = contentStart(page)
        if recorded > pointers && recorded <= usable { starts.append(recorded) }
        var lowest = Int.max
        var index = 0
        while pointers + 2 * index + 2 <= recorded, pointers + 2 * index + 2 <= usable {
            let pointer = integer16(page, pointers + 2 * index)
            guard pointer > pointers, pointer < usable else { break }
            lowest = min(lowest, pointer)
            index += 1
        }
        if lowest != Int.max, !starts.contains(lowest) { starts.append(lowest) }
        return starts
    }

    /// Candidates for an interior page 1's right child: the recorded one if it is a b-tree
    /// page no cell names, then every table leaf page whose first record is a schema row.
    private static func rightChildren(
        _ page: [UInt8], children: Set<Int>, pageCount: Int, page read: (Int) -> [UInt8]?
    ) -> [Int] {
        let recorded = Int(integer32(page, 108))
        var found: [Int] = []
        if (2...max(2, pageCount)).contains(recorded), !children.contains(recorded),
            let child = read(recorded), child.first == leaf || child.first == interior
        {
            found.append(recorded)
        }
        guard pageCount >= 2 else { return found }
        for number in 2...pageCount where !children.contains(number) && number != recorded {
            if let child = read(number), holdsSchemaRows(child) { found.append(number) }
        }
        return found
    }

    /// Whether `page` is a table leaf whose first cell's record starts with a schema row's
    /// type ("table", "index", "trigger" or "view").
    private static func holdsSchemaRows(_ page: [UInt8]) -> Bool {
        guard page.count > 12, page[0] == leaf, integer16(page, 3) > 0 else { return false }
        let offset = integer16(page, 8)
        guard let payload = varint(page, offset, limit: page.count),
            let key = varint(page, offset + payload.length, limit: page.count)
        else { return false }
        let record = offset + payload.length + key.length
        guard let header = varint(page, record, limit: page.count),
            let first = varint(page, record + header.length, limit: page.count),
            first.value >= 13, first.value % 2 == 1
        else { return false }
        let start = record + Int(clamping: header.value)
        let length = Int((first.value - 13) / 2)
        guard start >= record, start + length <= page.count else { return false }
        let text = page[start..<start + length]
        return ["table", "index", "trigger", "view"].contains { text.elementsEqual($0.utf8) }
    }

    // MARK: Bytes

    private static func contentStart(_ page: [UInt8]) -> Int {
        let value = integer16(page, 105)
        return value == 0 ? 65_536 : value
    }

    /// A SQLite varint at `offset` (big-endian, 7 bits a byte, the ninth byte whole).
    private static func varint(_ bytes: [UInt8], _ offset: Int, limit: Int) -> (value: Int64, length: Int)? {
        var value: UInt64 = 0
        for index in 0..<9 {
            guard offset + index < limit, offset + index >= 0 else { return nil }
            let byte = bytes[offset + index]
            if index == 8 { return (Int64(bitPattern: value << 8 | UInt64(byte)), 9) }
            value = value << 7 | UInt64(byte & 0x7F)
            if byte & 0x80 == 0 { return (Int64(bitPattern: value), index + 1) }
        }
        return nil
    }

    private static func integer16(_ bytes: [UInt8], _ offset: Int) -> Int {
        Int(bytes[offset]) << 8 | Int(bytes[offset + 1])
    }

    private static func integer32(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
        bytes[offset..<offset + 4].reduce(0) { $0 << 8 | UInt32($1) }
    }

    private static func put16(_ value: Int, in bytes: inout [UInt8], at offset: Int) {
        bytes[offset] = UInt8(truncatingIfNeeded: value >> 8)
        bytes[offset + 1] = UInt8(truncatingIfNeeded: value)
    }

    private static func put32(_ value: UInt32, in bytes: inout [UInt8], at offset: Int) {
        for index in 0..<4 { bytes[offset + index] = UInt8(truncatingIfNeeded: value >> (24 - 8 * index)) }
    }
}
