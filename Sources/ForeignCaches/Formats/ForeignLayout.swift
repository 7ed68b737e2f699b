import CacheCore

/// How a recognised file splits into namespaces: fixed sections (tables, shards), and at
/// most one table split by an expression over its rows (a key prefix, a `table_name`).
struct ForeignLayout: Sendable {
    /// A table whose rows group into namespaces by `expression`.
    struct Grouping: Sendable {
        var file: ForeignFile
        var table: ForeignTable
        var expression: String
        /// The name shown for the empty group.
        var emptyName: String
    }

    var kind: ForeignFormatKind
    var sections: [ForeignSection] = []
    var grouping: Grouping?
    /// The database files (several for a FanoutCache).
    var files: [ForeignFile]

    /// The most groups listed.
    static let maximumGroups = 256

    /// Every namespace now (a grouping is read from its rows).
    func namespaces() throws -> [ForeignSection] {
        guard let grouping else { return sections }
        let sql = """
            SELECT DISTINCT \(grouping.expression) FROM \(grouping.table.name) ORDER BY 1 LIMIT \(Self.maximumGroups)
            """
        let names = try grouping.file.read { connection in
            try connection.withDynamicStatement(sql) { statement in
                try statement.rows { ForeignSection.display($0.value(0)) }
            }
        }
        return sections + names.map { group($0 == "" ? grouping.emptyName : $0, grouping) }
    }

    /// The namespace called `name`, without reading rows.
    func section(named name: String) -> ForeignSection? {
        if let fixed = sections.first(where: { $0.namespace == name }) { return fixed }
        return grouping.map { group(name, $0) }
    }

    private func group(_ name: String, _ grouping: Grouping) -> ForeignSection {
        ForeignSection(
            namespace: name, file: grouping.file, table: grouping.table,
            condition: ForeignCondition(
                sql: "\(grouping.expression) = ?", values: [.text(name == grouping.emptyName ? "" : name)]))
    }

    /// What the format records, from its first table.
    var facts: ForeignFacts {
        let table = sections.first?.table ?? grouping?.table
        return ForeignFacts(
            expiry: table?.expires != nil, created: table?.created != nil, lastAccess: table?.accessed != nil,
            hits: table?.hits != nil, tags: table?.tag != nil)
    }
}
