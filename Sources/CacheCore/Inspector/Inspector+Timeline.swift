extension Inspector {
    /// When the entries of `namespace` (or of every namespace) expire: counts and bytes per
    /// ``ExpiryBucketKind`` and per hour of the next 48.
    ///
    /// Every figure is exact: a range count and sum on `entries_by_expiry`, which holds each
    /// entry's size (index only, no row is read). The ranges are disjoint, so each index entry
    /// is counted once.
    ///
    /// - Throws: ``InspectorError/noSuchNamespace(_:)`` for an unknown namespace.
    public func expiryTimeline(namespace: String? = nil) throws -> ExpiryTimeline {
        let now = store.now()
        let ranges = ExpiryRanges(now: now)
        let counts = try store.database.read { connection in
            try connection.readTransaction {
                let records = try connection.namespaceRecords(named: namespace)
                if let namespace, records.isEmpty { throw InspectorError.noSuchNamespace(namespace) }
                return try ranges.count(records, on: connection)
            }
        }
        return ranges.timeline(namespace: namespace, counts: counts)
    }
}

/// The disjoint expiry ranges a timeline counts, as inclusive bounds on `expires_at`:
/// expired, three within the first hour, one per later hour up to 48, 48 hours to a week,
/// later, and never (`nil` bounds). Buckets and hours are unions of them.
package struct ExpiryRanges {
    static let hours = 48
    private static let minute: Int64 = 60_000
    private static let hour: Int64 = 3_600_000
    private static let day: Int64 = 86_400_000

    let now: Int64
    /// Inclusive `expires_at` bounds; `nil` is the never-expiring range.
    let bounds: [ClosedRange<Int64>?]

    package init(now: Int64) {
        self.now = now
        let edges =
            [now.addingClamped(1), now.addingClamped(Self.minute), now.addingClamped(5 * Self.minute)]
            + (1...Self.hours).map { now.addingClamped(Int64($0) * Self.hour) } + [now.addingClamped(7 * Self.day)]
        var bounds: [ClosedRange<Int64>?] = [Int64.min...now]
        for (lower, next) in zip(edges, edges.dropFirst()) { bounds.append(lower...max(lower, next - 1)) }
        bounds += [edges[edges.count - 1]...Int64.max, nil]
        self.bounds = bounds
    }

    /// Range 0 is expired, 1–3 the first hour, 3 + h hour h (1…47), then 48 h–7 d, later, never.
    func indices(of kind: ExpiryBucketKind) -> [Int] {
        switch kind {
        case .expired: [0]
        case .withinMinute: [1]
        case .withinFiveMinutes: [2]
        case .withinHour: [3]
        case .withinDay: Array(4...26)
        case .withinWeek: Array(27...51)
        case .later: [52]
        case .never: [53]
        }
    }

    func indices(ofHour hour: Int) -> [Int] { hour == 0 ? [1, 2, 3] : [3 + hour] }

    func hourStart(_ hour: Int) -> Int64 {
        hour == 0 ? now.addingClamped(1) : now.addingClamped(Int64(hour) * Self.hour)
    }

    /// The `from` (inclusive) and `until` (exclusive) expiry of a bucket.
    func bounds(of kind: ExpiryBucketKind) -> (from: Int64?, until: Int64?) {
        let indices = indices(of: kind)
        guard let first = indices.first.flatMap({ bounds[$0] }), let last = indices.last.flatMap({ bounds[$0] }) else {
            return (nil, nil)
        }
        return (
            first.lowerBound == .min ? nil : first.lowerBound,
            last.upperBound == .max ? nil : last.upperBound.addingClamped(1)
        )
    }

    /// The range an entry expiring at `expiresAt` (`nil`: never) falls in.
    package func index(of expiresAt: Int64?) -> Int {
        guard let expiresAt else { return bounds.count - 1 }
        return bounds.firstIndex { $0?.contains(expiresAt) ?? false } ?? bounds.count - 1
    }

    /// The timeline of `counts`: every bucket and hour summed from its ranges.
    package func timeline(namespace: String?, counts: ExpiryCounts) -> ExpiryTimeline {
        ExpiryTimeline(
            namespace: namespace, now: now,
            buckets: ExpiryBucketKind.allCases.map { kind in
                let total = counts.total(of: indices(of: kind))
                let bounds = bounds(of: kind)
                return ExpiryBucket(
                    kind: kind, from: bounds.from, until: bounds.until, entries: total.entries, bytes: total.bytes)
            },
            hourly: (0..<Self.hours).map { hour in
                let total = counts.total(of: indices(ofHour: hour))
                return ExpiryHour(
                    hour: hour, from: hourStart(hour), until: hourStart(hour + 1), entries: total.entries,
                    bytes: total.bytes)
            })
    }

    /// Counts and sums every range of every namespace.
    func count(_ namespaces: [NamespaceRecordRow], on connection: SQLiteConnection) throws -> ExpiryCounts {
        var cells: [ExpiryCounts.Cell] = []
        for namespace in namespaces {
            for (index, range) in bounds.enumerated() {
                let (entries, bytes) = try connection.expiringTotals(namespaceID: namespace.id, in: range)
                cells.append(ExpiryCounts.Cell(range: index, entries: entries, bytes: bytes))
            }
        }
        return ExpiryCounts(cells: cells)
    }
}

/// Entries and bytes per namespace and range.
package struct ExpiryCounts {
    package struct Cell {
        let range: Int
        let entries: Int
        let bytes: Int64

        /// The memberwise initializer, for the package's other targets.
        package init(range: Int, entries: Int, bytes: Int64) {
            self.range = range
            self.entries = entries
            self.bytes = bytes
        }
    }

    let cells: [Cell]

    func total(of ranges: [Int]) -> (entries: Int, bytes: Int64) {
        let selected = Set(ranges)
        return cells.filter { selected.contains($0.range) }.reduce((0, 0)) { total, cell in
            (total.0 + cell.entries, total.1.addingClamped(cell.bytes))
        }
    }

    /// The memberwise initializer, for the package's other targets.
    package init(cells: [Cell]) {
        self.cells = cells
    }
}
