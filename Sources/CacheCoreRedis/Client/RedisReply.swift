import CacheCore
import Foundation

/// One reply of a Redis server (RESP2).
package enum RedisReply: Sendable, Equatable {
    case status(String)
    case error(String)
    case integer(Int64)
    case bulk(Data)
    case null
    case array([RedisReply])

    /// A status or bulk reply as text (`nil` for other replies or bytes that are not UTF-8).
    var string: String? {
        switch self {
        case .status(let text): text
        case .bulk(let data): String(data: data, encoding: .utf8)
        default: nil
        }
    }

    /// A bulk reply's bytes.
    var data: Data? {
        if case .bulk(let data) = self { return data }
        return nil
    }

    /// An integer reply, or a bulk reply holding a decimal integer (as `HGET` returns them).
    var integer: Int64? {
        switch self {
        case .integer(let value): value
        case .bulk(let data): Int64(String(decoding: data, as: UTF8.self))
        default: nil
        }
    }

    /// An array reply's elements.
    var array: [RedisReply]? {
        if case .array(let elements) = self { return elements }
        return nil
    }
}

/// One argument of a Redis command: text, bytes or a number, sent binary-safe.
package struct RedisArgument: Sendable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral {
    let bytes: [UInt8]

    init(_ text: String) { bytes = Array(text.utf8) }
    init(_ data: Data) { bytes = Array(data) }
    init(_ number: Int64) { bytes = Array(String(number).utf8) }
    init(_ number: Int) { bytes = Array(String(number).utf8) }
    package init(stringLiteral text: String) { self.init(text) }
    package init(integerLiteral number: Int) { self.init(number) }
}
