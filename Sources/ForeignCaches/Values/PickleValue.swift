/// A Python pickle read as data, never run: the opcodes that build `None`, booleans, numbers,
/// strings, bytes, lists, tuples, dicts and sets are followed; a class or function the pickle
/// names is kept as its dotted name and a call of it (`REDUCE`, `NEWOBJ`, `BUILD`) as the call
/// it would have made, so nothing is imported and nothing runs. Anything else (protocol 0's
/// quoted strings, extension registries, persistent ids, out-of-band buffers), a truncated
/// pickle or one that misuses its stack reads as `nil`, and the caller shows the bytes.
final class PickleValue {
    enum Kind {
        case none, bool, int, float, string, bytes, list, tuple, dict, set, frozenset, global, call
    }

    let kind: Kind
    /// The scalar's text (`int` and `float` in decimal, `string`, `global` as `module.name`).
    var text: String
    /// The bytes of `bytes`.
    var bytes: [UInt8] = []
    /// Elements; a dict's keys and values alternate; a call's are its callee, its arguments
    /// (a tuple), then the state `BUILD` gave it when it has one.
    var items: [PickleValue] = []

    init(_ kind: Kind, text: String = "", items: [PickleValue] = []) {
        self.kind = kind
        self.text = text
        self.items = items
    }

    /// Takes a deep value apart one level at a time (a pickle can nest lists 100,000 deep,
    /// which releasing child by child would overflow the stack with).
    deinit {
        var pending = items
        items.removeAll()
        while var value = pending.popLast() {
            if isKnownUniquelyReferenced(&value) {
                pending += value.items
                value.items.removeAll()
            }
        }
    }

    /// `body` of the value `pickle` builds, or `nil` when it builds none (see the type's
    /// comment). Work is bounded by the input: each opcode builds at most one value. The value
    /// lives only as long as `body`: a pickle can hold a list inside itself, a cycle nothing
    /// would free, so the cycles are cut when `body` returns.
    static func reading<T>(_ pickle: [UInt8], _ body: (PickleValue) -> T) -> T? {
        var machine = PickleMachine(bytes: pickle)
        defer { machine.cutCycles() }
        return machine.run().map(body)
    }
}

/// The pickle virtual machine's stack, marks and memo, over a byte array.
private struct PickleMachine {
    let bytes: [UInt8]
    var position = 0
    var stack: [PickleValue] = []
    var marks: [Int] = []
    var memo: [Int: PickleValue] = [:]
    /// The bytes of integers longer than 8 bytes still to be written in decimal.
    var longIntegerBytesLeft = 4 * PickleMachine.decimalBytes

    init(bytes: [UInt8]) { self.bytes = bytes }

    /// Empties every memoized value: a cycle can only run through one (only `GET` refers
    /// back to a value already built).
    func cutCycles() {
        for value in memo.values { value.items.removeAll() }
    }

    mutating func run() -> PickleValue? {
        while let opcode = take(1)?.first {
            if opcode == UInt8(ascii: ".") { return stack.count == 1 && marks.isEmpty ? stack[0] : nil }
            guard step(opcode) else { return nil }
        }
        return nil
    }

    private mutating func step(_ opcode: UInt8) -> Bool {
        switch opcode {
        case 0x80: return take(1) != nil  // PROTO
        case 0x95: return take(8) != nil  // FRAME: frames are read as one stream
        case UInt8(ascii: "("): marks.append(stack.count)
        case UInt8(ascii: "0"): return stack.popLast() != nil
        case UInt8(ascii: "1"): return popMark() != nil
        case UInt8(ascii: "2"):
            guard let top = stack.last else { return false }
            stack.append(top)
        case UInt8(ascii: "N"): stack.append(PickleValue(.none))
        case 0x88: stack.append(PickleValue(.bool, text: "True"))
        case 0x89: stack.append(PickleValue(.bool, text: "False"))
        case UInt8(ascii: "K"): return pushInt(length: 1, signed: false)
        case UInt8(ascii: "M"): return pushInt(length: 2, signed: false)
        case UInt8(ascii: "J"): return pushInt(length: 4, signed: true)
        case 0x8A: return length(1).map { pushInt(length: $0, signed: true) } ?? false  // LONG1
        case 0x8B: return length(4).map { pushInt(length: $0, signed: true) } ?? false  // LONG4
        case UInt8(ascii: "I"), UInt8(ascii: "L"): return pushDecimalLine()
        case UInt8(ascii: "G"):
            guard let raw = take(8) else { return false }
            let bits = raw.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            stack.append(PickleValue(.float, text: Self.repr(Double(bitPattern: bits))))
        case UInt8(ascii: "F"):
            guard let line = line(), let value = Double(line) else { return false }
            stack.append(PickleValue(.float, text: Self.repr(value)))
        case 0x8C: return length(1).map { pushString($0) } ?? false  // SHORT_BINUNICODE
        case UInt8(ascii: "X"): return length(4).map { pushString($0) } ?? false  // BINUNICODE
        case 0x8D: return length(8).map { pushString($0) } ?? false  // BINUNICODE8
        case UInt8(ascii: "C"), UInt8(ascii: "U"): return length(1).map { pushBytes($0) } ?? false
        case UInt8(ascii: "B"), UInt8(ascii: "T"): return length(4).map { pushBytes($0) } ?? false
        case 0x8E, 0x96: return length(8).map { pushBytes($0) } ?? false  // BINBYTES8, BYTEARRAY8
        case UInt8(ascii: "]"): stack.append(PickleValue(.list))
        case UInt8(ascii: ")"): stack.append(PickleValue(.tuple))
        case UInt8(ascii: "}"): stack.append(PickleValue(.dict))
        case 0x8F: stack.append(PickleValue(.set))
        case UInt8(ascii: "l"): return popMark().map { stack.append(PickleValue(.list, items: $0)) } != nil
        case UInt8(ascii: "t"): return popMark().map { stack.append(PickleValue(.tuple, items: $0)) } != nil
        case UInt8(ascii: "d"):
            guard let items = popMark(), items.count.isMultiple(of: 2) else { return false }
            stack.append(PickleValue(.dict, items: items))
        case 0x91: return popMark().map { stack.append(PickleValue(.frozenset, items: $0)) } != nil
        case 0x85, 0x86, 0x87:  // TUPLE1, TUPLE2, TUPLE3
            let count = Int(opcode - 0x84)
            guard stack.count >= count else { return false }
            stack.append(PickleValue(.tuple, items: Array(stack.suffix(count))))
            stack.removeSubrange(stack.count - count - 1..<stack.count - 1)
        case UInt8(ascii: "a"):
            guard let item = stack.popLast() else { return false }
            return extend(.list, with: [item])
        case UInt8(ascii: "e"): return popMark().map { extend(.list, with: $0) } ?? false
        case UInt8(ascii: "s"):
            guard stack.count >= 2 else { return false }
            let pair = Array(stack.suffix(2))
            stack.removeLast(2)
            return extend(.dict, with: pair)
        case UInt8(ascii: "u"):
            guard let items = popMark(), items.count.isMultiple(of: 2) else { return false }
            return extend(.dict, with: items)
        case 0x90: return popMark().map { extend(.set, with: $0) } ?? false  // ADDITEMS
        case UInt8(ascii: "p"): return line().flatMap { Int($0) }.map { put($0) } ?? false
        case UInt8(ascii: "q"): return take(1)?.first.map { put(Int($0)) } ?? false
        case UInt8(ascii: "r"): return length(4).map { put($0) } ?? false
        case 0x94: return put(memo.count)  // MEMOIZE
        case UInt8(ascii: "g"): return line().flatMap { Int($0) }.map { get($0) } ?? false
        case UInt8(ascii: "h"): return take(1)?.first.map { get(Int($0)) } ?? false
        case UInt8(ascii: "j"): return length(4).map { get($0) } ?? false
        case UInt8(ascii: "c"):  // GLOBAL: module and name on two lines
            guard let module = line(), let name = line() else { return false }
            stack.append(PickleValue(.global, text: module + "." + name))
        case 0x93:  // STACK_GLOBAL
            guard stack.count >= 2, stack[stack.count - 2].kind == .string, stack[stack.count - 1].kind == .string
            else { return false }
            let name = stack.removeLast().text
            stack.append(PickleValue(.global, text: stack.removeLast().text + "." + name))
        case UInt8(ascii: "R"), 0x81:  // REDUCE, NEWOBJ: the call, not made
            guard stack.count >= 2, stack[stack.count - 1].kind == .tuple else { return false }
            let arguments = stack.removeLast()
            let callee = stack.removeLast()
            stack.append(Self.builtin(callee, arguments) ?? PickleValue(.call, items: [callee, arguments]))
        case 0x92:  // NEWOBJ_EX: class, args, kwargs
            guard stack.count >= 3, stack[stack.count - 2].kind == .tuple else { return false }
            stack.removeLast()
            let arguments = stack.removeLast()
            stack.append(PickleValue(.call, items: [stack.removeLast(), arguments]))
        case UInt8(ascii: "b"):  // BUILD: the state the object would be given
            guard stack.count >= 2, stack[stack.count - 2].kind == .call else { return false }
            stack[stack.count - 2].items.append(stack.removeLast())
        default: return false
        }
        return true
    }

    /// The next `count` bytes, or `nil` at the end.
    private mutating func take(_ count: Int) -> ArraySlice<UInt8>? {
        guard count >= 0, count <= bytes.count - position else { return nil }
        defer { position += count }
        return bytes[position..<position + count]
    }

    /// A little-endian unsigned length of `size` bytes that the rest of the input can hold.
    private mutating func length(_ size: Int) -> Int? {
        guard let raw = take(size) else { return nil }
        let value = raw.reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        return value <= UInt64(bytes.count - position) ? Int(value) : nil
    }

    /// A line of protocol 0 (ASCII up to `\n`).
    private mutating func line() -> String? {
        guard let end = bytes[position...].firstIndex(of: UInt8(ascii: "\n")) else { return nil }
        defer { position = end + 1 }
        return String(decoding: bytes[position..<end], as: UTF8.self)
    }

    private mutating func popMark() -> [PickleValue]? {
        guard let mark = marks.popLast(), mark <= stack.count else { return nil }
        defer { stack.removeSubrange(mark...) }
        return Array(stack[mark...])
    }

    /// Adds `items` to the container of `kind` now on top of the stack.
    private mutating func extend(_ kind: PickleValue.Kind, with items: [PickleValue]) -> Bool {
        guard let container = stack.last, container.kind == kind else { return false }
        container.items += items
        return true
    }

    private mutating func put(_ index: Int) -> Bool {
        guard let top = stack.last else { return false }
        memo[index] = top
        return true
    }

    private mutating func get(_ index: Int) -> Bool {
        guard let value = memo[index] else { return false }
        stack.append(value)
        return true
    }

    /// The longest integer written in decimal: Python's own limit (4,300 digits). Decimal
    /// conversion takes time in the square of the length, so a longer one is named by its size,
    /// and so is every one past the first few longer than 8 bytes (``longIntegerBytesLeft``).
    static let decimalBytes = 1_785

    /// A little-endian integer of `length` bytes, two's complement when `signed`.
    private mutating func pushInt(length: Int, signed: Bool) -> Bool {
        guard let raw = take(length) else { return false }
        let converts = length <= 8 || length <= min(Self.decimalBytes, longIntegerBytesLeft)
        if length > 8, converts { longIntegerBytesLeft -= length }
        let text = converts ? Self.decimal(Array(raw), signed: signed) : "int(<\(length) bytes>)"
        stack.append(PickleValue(.int, text: text))
        return true
    }

    /// Protocol 0's `I` and `L`: decimal text (`I01`/`I00` are True and False).
    private mutating func pushDecimalLine() -> Bool {
        guard var line = line() else { return false }
        if line == "01" || line == "00" {
            stack.append(PickleValue(.bool, text: line == "01" ? "True" : "False"))
            return true
        }
        if line.hasSuffix("L") { line.removeLast() }
        let digits = line.hasPrefix("-") ? line.dropFirst() : Substring(line)
        if digits.count > 4_300 { line = "int(<\(digits.count) digits>)" }
        guard !digits.isEmpty, digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber) else { return false }
        stack.append(PickleValue(.int, text: line))
        return true
    }

    private mutating func pushString(_ count: Int) -> Bool {
        guard let raw = take(count), let text = String(validating: raw, as: UTF8.self) else { return false }
        stack.append(PickleValue(.string, text: text))
        return true
    }

    private mutating func pushBytes(_ count: Int) -> Bool {
        guard let raw = take(count) else { return false }
        let value = PickleValue(.bytes)
        value.bytes = Array(raw)
        stack.append(value)
        return true
    }

    /// The value protocols 2 and 3 spell as a call of a builtin: `set([…])`, `frozenset([…])`,
    /// and bytes as `_codecs.encode(text, 'latin1')`; `nil` for any other call.
    static func builtin(_ callee: PickleValue, _ arguments: PickleValue) -> PickleValue? {
        guard callee.kind == .global, arguments.items.count <= 2 else { return nil }
        let name = callee.text.replacingOccurrences(of: "__builtin__.", with: "builtins.")
        let first = arguments.items.first
        switch name {
        case "builtins.set", "builtins.frozenset":
            guard arguments.items.count <= 1, first == nil || first?.kind == .list else { return nil }
            return PickleValue(name == "builtins.set" ? .set : .frozenset, items: first?.items ?? [])
        case "_codecs.encode":
            guard arguments.items.count == 2, let text = first, text.kind == .string,
                arguments.items[1].kind == .string, arguments.items[1].text == "latin1",
                text.text.unicodeScalars.allSatisfy({ $0.value <= 0xFF })
            else { return nil }
            let value = PickleValue(.bytes)
            value.bytes = text.text.unicodeScalars.map { UInt8($0.value) }
            return value
        default: return nil
        }
    }

    /// The decimal text of a little-endian (two's complement when `signed`) integer of any length.
    static func decimal(_ littleEndian: [UInt8], signed: Bool) -> String {
        var magnitude = littleEndian
        let negative = signed && (littleEndian.last ?? 0) & 0x80 != 0
        if negative {
            // Two's complement: invert and add one.
            var carry = 1
            for index in magnitude.indices {
                let sum = Int(~magnitude[index]) + carry
                magnitude[index] = UInt8(truncatingIfNeeded: sum)
                carry = sum >> 8
            }
        }
        // Repeated division by 10 of the big-endian digits.
        var digits = Array(magnitude.reversed().drop { $0 == 0 })
        var text: [Character] = []
        while !digits.isEmpty {
            var remainder = 0
            for index in digits.indices {
                let value = remainder << 8 | Int(digits[index])
                digits[index] = UInt8(value / 10)
                remainder = value % 10
            }
            text.append(Character(String(remainder)))
            digits = Array(digits.drop { $0 == 0 })
        }
        let number = text.isEmpty ? "0" : String(text.reversed())
        return negative ? "-" + number : number
    }

    /// A float as Python's `repr` writes it (`1.5`, `1e+20`, `inf`, `nan`).
    static func repr(_ value: Double) -> String {
        if value.isNaN { return "nan" }
        if value.isInfinite { return value < 0 ? "-inf" : "inf" }
        return "\(value)"
    }
}
