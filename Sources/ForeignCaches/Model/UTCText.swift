import Foundation

/// Times as the UTC text SQLite, Rails and Django store (`2026-11-27 00:15:00.000`).
enum UTCText {
    /// `milliseconds` since 1970 as text that sorts with stored values (clamped to years 0–9999).
    static func text(_ milliseconds: Int64) -> String {
        let clamped = min(max(milliseconds, -62_167_219_200_000), 253_402_300_799_999)
        let seconds = Int(clamped.quotientAndRemainder(dividingBy: 1000).quotient)
        let millis = Int(clamped - Int64(seconds) * 1000)
        var time = time_t(seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        return String(
            format: "%04d-%02d-%02d %02d:%02d:%02d.%03d", Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1,
            Int(parts.tm_mday), Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec), max(0, millis))
    }
}
