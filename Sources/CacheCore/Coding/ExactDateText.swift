import Foundation

/// The text ``JSONValueCoder`` stores for a `Date`: UTC ISO 8601 with as many fractional
/// digits as reading it back exactly needs (`2026-11-23T21:10:16Z`,
/// `2026-11-23T21:10:16.123456Z`). A date that ISO 8601 cannot hold exactly (before year 1,
/// after 9999, or tinier than the text can carry) is stored as the number of seconds since
/// 2001-01-01, as `Date`'s own `Codable` form does. Reading accepts both, and the whole-second
/// text that versions before fractional seconds wrote.
enum ExactDateText {
    /// Seconds from 1970-01-01 to 2001-01-01, the reference date `Date` counts from.
    private static let referenceOffset: Int64 = 978_307_200
    private static let maxFractionDigits = 24

    static func encode(_ date: Date, to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if let text = text(for: date) {
            try container.encode(text)
        } else {
            try container.encode(date.timeIntervalSinceReferenceDate)
        }
    }

    static func decode(from decoder: any Decoder) throws -> Date {
        let container = try decoder.singleValueContainer()
        guard let text = try? container.decode(String.self) else {
            return Date(timeIntervalSinceReferenceDate: try container.decode(Double.self))
        }
        if let date = date(from: text) { return date }
        throw DecodingError.dataCorruptedError(
            in: container, debugDescription: "'\(text)' is not an ISO 8601 date")
    }

    /// The ISO 8601 text that reads back as exactly `date`, or `nil` when there is none.
    static func text(for date: Date) -> String? {
        let interval = date.timeIntervalSinceReferenceDate
        guard interval.isFinite else { return nil }
        let whole = interval.rounded(.down)
        guard abs(whole) < 1e15 else { return nil }
        let seconds = Int64(whole) + referenceOffset
        guard let stamp = wholeSeconds(seconds) else { return nil }
        let fraction = interval - whole
        if fraction == 0 { return stamp + "Z" }
        for digits in 1...maxFractionDigits {
            let decimal = String(format: "%.*f", digits, fraction)
            guard decimal.hasPrefix("0."), let value = Double(decimal), whole + value == interval else { continue }
            return stamp + decimal.dropFirst() + "Z"
        }
        return nil
    }

    /// Reads `YYYY-MM-DDTHH:MM:SS[.fraction]Z` exactly, else any ISO 8601 internet date-time.
    static func date(from text: String) -> Date? {
        let utf8 = Array(text.utf8)
        guard utf8.count >= 20, utf8.last == UInt8(ascii: "Z"),
            let year = number(utf8, 0, 4), utf8[4] == UInt8(ascii: "-"),
            let month = number(utf8, 5, 2), utf8[7] == UInt8(ascii: "-"),
            let day = number(utf8, 8, 2), utf8[10] == UInt8(ascii: "T"),
            let hour = number(utf8, 11, 2), utf8[13] == UInt8(ascii: ":"),
            let minute = number(utf8, 14, 2), utf8[16] == UInt8(ascii: ":"),
            let second = number(utf8, 17, 2),
            (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61
        else { return fallback(text) }
        var fraction = 0.0
        if utf8.count > 20 {
            let digits = utf8[19..<(utf8.count - 1)]
            guard digits.first == UInt8(ascii: "."), digits.count > 1,
                digits.dropFirst().allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
                let value = Double("0" + String(decoding: digits, as: UTF8.self))
            else { return fallback(text) }
            fraction = value
        }
        let days = daysFromCivil(year: Int64(year), month: Int64(month), day: Int64(day))
        let unix = days * 86_400 + Int64(hour * 3600 + minute * 60 + second)
        return Date(timeIntervalSinceReferenceDate: Double(unix - referenceOffset) + fraction)
    }

    private static func fallback(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions.insert(.withFractionalSeconds)
        return formatter.date(from: text)
    }

    private static func number(_ bytes: [UInt8], _ start: Int, _ count: Int) -> Int? {
        var value = 0
        for byte in bytes[start..<(start + count)] {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }

    /// `YYYY-MM-DDTHH:MM:SS` for `seconds` since 1970 (UTC), years 1–9999 only.
    private static func wholeSeconds(_ seconds: Int64) -> String? {
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let inDay = seconds - days * 86_400
        let (year, month, day) = civil(fromDays: days)
        guard (1...9999).contains(year) else { return nil }
        func pad(_ value: Int64, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return
            "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(inDay / 3600, 2)):\(pad(inDay / 60 % 60, 2)):\(pad(inDay % 60, 2))"
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's algorithm).
    private static func daysFromCivil(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The proleptic Gregorian date `days` after 1970-01-01.
    private static func civil(fromDays days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
