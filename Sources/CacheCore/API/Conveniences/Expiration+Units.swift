extension Expiration {
    /// Expires `seconds` after the write.
    public static func seconds(_ seconds: Int) -> Expiration { .after(.seconds(seconds)) }
    /// Expires `minutes` after the write.
    public static func minutes(_ minutes: Int) -> Expiration { .after(.seconds(minutes * 60)) }
    /// Expires `hours` after the write.
    public static func hours(_ hours: Int) -> Expiration { .after(.seconds(hours * 3600)) }
    /// Expires `days` (of 24 hours) after the write.
    public static func days(_ days: Int) -> Expiration { .after(.seconds(days * 86_400)) }
}
