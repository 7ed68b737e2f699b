import CacheCore

/// The expiry timeline, or for formats without expiry the ages, counted in SQL.
enum ForeignTimelineSQL {
    /// The expiry buckets' names (as ``ExpiryBucketKind``), then the age buckets'.
    static let expiryLabels = ExpiryBucketKind.allCases.map(\.rawValue)
    static let ageLabels = ["< 1 minute", "< 1 hour", "< 1 day", "< 7 days", "< 30 days", "older", "unknown"]

    static func timeline(_ sections: [ForeignSection], namespace: String?, facts: ForeignFacts, now: Int64) throws
        -> ForeignTimeline
    {
        let isExpiry = facts.expiry
        var counts = Array(repeating: (0, Int64(0)), count: isExpiry ? expiryLabels.count : ageLabels.count)
        var hourly = Array(repeating: 0, count: isExpiry ? 48 : 0)
        for section in sections {
            let table = section.table
            guard let column = isExpiry ? table.expires : table.created else { continue }
            let time = column.milliseconds
            let bucket =
                isExpiry
                ? """
                CASE WHEN \(time) IS NULL THEN 7 WHEN \(time) <= ?1 THEN 0 WHEN \(time) - ?1 < 60000 THEN 1
                WHEN \(time) - ?1 < 300000 THEN 2 WHEN \(time) - ?1 < 3600000 THEN 3 WHEN \(time) - ?1 < 86400000 THEN 4
                WHEN \(time) - ?1 < 604800000 THEN 5 ELSE 6 END
                """
                : """
                CASE WHEN \(time) IS NULL THEN 6 WHEN ?1 - \(time) < 60000 THEN 0 WHEN ?1 - \(time) < 3600000 THEN 1
                WHEN ?1 - \(time) < 86400000 THEN 2 WHEN ?1 - \(time) < 604800000 THEN 3
                WHEN ?1 - \(time) < 2592000000 THEN 4 ELSE 5 END
                """
            let scope = section.scope
            // The scope's values follow ?1 (now): numbered from ?2.
            let scopeSQL = renumbered(scope.sql, from: 2)
            try section.file.read { connection in
                try connection.withDynamicStatement(
                    "SELECT \(bucket), count(*), total(\(table.size)) FROM \(table.name) WHERE \(scopeSQL) GROUP BY 1"
                ) { statement in
                    statement.bind(values: [.integer(now)] + scope.values)
                    while try statement.step() {
                        let index = min(max(statement.int(0), 0), counts.count - 1)
                        counts[index].0 += statement.int(1)
                        counts[index].1 &+= ForeignSection.saturated(statement.value(2))
                    }
                }
                guard isExpiry else { return }
                try connection.withDynamicStatement(
                    """
                    SELECT (\(time) - ?1) / 3600000, count(*) FROM \(table.name)
                    WHERE \(scopeSQL) AND \(time) > ?1 AND \(time) - ?1 < 172800000 GROUP BY 1
                    """
                ) { statement in
                    statement.bind(values: [.integer(now)] + scope.values)
                    while try statement.step() {
                        let hour = statement.int(0)
                        if hourly.indices.contains(hour) { hourly[hour] += statement.int(1) }
                    }
                }
            }
        }
        let labels = isExpiry ? expiryLabels : ageLabels
        return ForeignTimeline(
            namespace: namespace, kind: isExpiry ? .expiry : .age,
            buckets: zip(labels, counts).map { ForeignTimeline.Bucket(label: $0, entries: $1.0, bytes: $1.1) },
            hourly: hourly)
    }

    /// `sql`'s plain `?` parameters as `?N`, `?N+1`, … (so they follow numbered ones).
    private static func renumbered(_ sql: String, from first: Int) -> String {
        var next = first
        var result = ""
        for character in sql {
            if character == "?" {
                result += "?\(next)"
                next += 1
            } else {
                result.append(character)
            }
        }
        return result
    }
}
