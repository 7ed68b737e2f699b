import TerminalUI

/// The namespace table's columns: which fit a width, in which order, and what each shows.
/// Beside the hit rate stand the figures that explain it (misses, operations, evictions,
/// expirations, loader failures of the last minute), as many as the width allows; at 80
/// columns the essentials (entries, bytes, hit rate, misses, ops/s, expired) always fit.
enum NamespaceField: CaseIterable, Hashable {
    case name, entries, bytes, bar, hitRate, misses, evictions, expirations, loadFailures, operations, expired, version

    /// The fields that fit `width` cells, left to right: the most important first, the rest
    /// while they fit.
    static func fitting(_ width: Int) -> [NamespaceField] {
        var chosen: Set<NamespaceField> = []
        var used = -1
        for field in byPriority {
            let needed = field.minimumWidth + 1
            if used + needed <= width || field.priority == 0 {
                chosen.insert(field)
                used += needed
            }
        }
        return allCases.filter(chosen.contains)
    }

    /// The table columns of `fields`.
    static func columns(_ fields: [NamespaceField]) -> [TableColumn] { fields.map(\.column) }

    private static let byPriority = allCases.sorted { $0.priority < $1.priority }

    /// 0: always shown; higher numbers give way first.
    private var priority: Int {
        switch self {
        case .name, .entries, .bytes, .hitRate: 0
        case .misses: 1
        case .operations: 2
        case .expired: 3
        case .evictions: 4
        case .expirations: 5
        case .loadFailures: 6
        case .bar: 7
        case .version: 8
        }
    }

    /// The column: heading, width and alignment.
    var column: TableColumn {
        switch self {
        case .name: TableColumn(title: "namespace", width: .flexible(minimum: 12, weight: 3))
        case .bar: TableColumn(title: "", width: .flexible(minimum: 6, weight: 2))
        case .version: TableColumn(title: "version", width: .flexible(minimum: 7, weight: 1))
        case .hitRate: TableColumn(title: "hit rate", width: .fixed(10), alignment: .trailing)
        case .operations: TableColumn(title: "ops/s", width: .fixed(8), alignment: .trailing)
        case .misses, .evictions, .expirations, .loadFailures:
            TableColumn(title: sortColumn?.title ?? "", width: .fixed(10), alignment: .trailing)
        case .entries, .bytes, .expired:
            TableColumn(title: sortColumn?.title ?? "", width: .fixed(9), alignment: .trailing)
        }
    }

    private var minimumWidth: Int {
        switch column.width {
        case .fixed(let width): width
        case .flexible(let minimum, _): minimum
        }
    }

    /// The sort column the field shows, if it can be sorted by.
    var sortColumn: NamespaceColumn? {
        switch self {
        case .name: .name
        case .entries: .entries
        case .bytes: .bytes
        case .hitRate: .hitRate
        case .misses: .misses
        case .evictions: .evictions
        case .expirations: .expirations
        case .loadFailures: .loadFailures
        case .operations: .operations
        case .expired: .expired
        case .bar, .version: nil
        }
    }

    /// The field's cell for `namespace` (`number`: the style of figures that changed or not).
    /// Figures the store does not record are "–", not 0; counts still being made start `≥`.
    func cell(_ namespace: NamespaceFacts, number: CellStyle, options: RenderOptions) -> TableCell {
        let atLeast = namespace.isExact ? "" : "≥"
        let unknown = TableCell("–", CellStyle(.muted))
        let recent = namespace.lastMinute
        func count(_ value: Int?, alarming: StyleRole = .text) -> TableCell {
            guard let value else { return unknown }
            return TableCell(Formatting.count(value), CellStyle(value > 0 ? alarming : .muted))
        }
        switch self {
        case .name: return TableCell(namespace.name)
        case .entries: return TableCell(atLeast + Formatting.count(namespace.entries), number)
        case .bytes:
            return TableCell(
                namespace.isBytesCounting ? options.ellipsis : atLeast + Formatting.bytes(Int(namespace.bytes)), number)
        case .bar: return TableCell("")
        case .hitRate:
            return TableCell(TimeText.percent(namespace.hitRate), CellStyle(OverviewScreen.hitRateRole(namespace.hitRate)))
        case .misses: return count(recent?.misses)
        case .evictions: return count(recent?.evictions, alarming: .warn)
        case .expirations: return count(recent?.expirations)
        case .loadFailures: return count(recent?.loadFailures ?? nil, alarming: .bad)
        case .operations: return recent.map { TableCell(TimeText.rate($0.operationsPerSecond)) } ?? unknown
        case .expired:
            guard namespace.hasExpiry else { return unknown }
            return TableCell(
                atLeast + Formatting.count(namespace.expired), CellStyle(namespace.expired > 0 ? .warn : .muted))
        case .version: return TableCell(namespace.version.isEmpty ? "–" : namespace.version, CellStyle(.muted))
        }
    }
}
