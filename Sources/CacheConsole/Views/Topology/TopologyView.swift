import TerminalUI
import CacheCore
import CacheCoreRedis

/// The Redis servers behind the console: every node with its role, slot ranges, keys,
/// memory and ops/s (a node that is down is shown, marked DOWN), and the node each CacheDeck
/// namespace lives on. Refreshed with the console.
package struct TopologyView: ReportView {
    /// The topology as last read.
    package var report: RedisTopology?
    /// The first line shown.
    package var scroll = 0

    package static let title = "Topology (Redis nodes)"
    static let loadingText = "Reading the nodes"

    package static let tab: ViewTab? = ViewTab(
        action: .showTopology, label: "Topology",
        help: "Redis topology: nodes, roles, slots, keys, memory, ops/s, where namespaces live", isOnBar: false)

    /// A topology view; `nil` (close it) when one is on top.
    package static func opened(from context: ViewContext) -> TopologyView? {
        context.model.current.view is TopologyView ? nil : TopologyView()
    }

    package var isAuxiliary: Bool { true }

    package func breadcrumb(in context: ViewContext) -> String? { "topology" }

    package mutating func loads(in context: ViewContext, refreshing: Bool) -> [TopologyRead] { [TopologyRead()] }

    // MARK: What it shows

    private static let nodeColumns = [
        TableColumn(title: "Node", width: .flexible(minimum: 16, weight: 1)),
        TableColumn(title: "Role", width: .fixed(8)),
        TableColumn(title: "Slots", width: .flexible(minimum: 18, weight: 1)),
        TableColumn(title: "Keys", width: .fixed(11), alignment: .trailing),
        TableColumn(title: "Memory", width: .fixed(9), alignment: .trailing),
        TableColumn(title: "Ops/s", width: .fixed(8), alignment: .trailing),
        TableColumn(title: "State", width: .fixed(5)),
    ]

    private static let namespaceColumns = [
        TableColumn(title: "Namespace", width: .flexible(minimum: 12, weight: 1)),
        TableColumn(title: "Node", width: .flexible(minimum: 16, weight: 1)),
        TableColumn(title: "Slot", width: .fixed(6), alignment: .trailing),
        TableColumn(title: "Entries", width: .flexible(minimum: 20, weight: 1)),
    ]

    /// The nodes, then the namespaces.
    func blocks(now: Int64) -> [ReportBlock] {
        guard let topology = report else { return [] }
        let primaries = topology.nodes.filter { $0.role == "primary" }
        let down = topology.nodes.count(where: \.isDown)
        let nodes = ReportBlock(
            title: topology.isCluster
                ? "Cluster: \(primaries.count) primaries, \(topology.nodes.count - primaries.count) replicas"
                    + (down > 0 ? ", \(down) DOWN" : "")
                : "One server (not a cluster): it holds every key",
            titleStyle: CellStyle(down > 0 ? .bad : .title), columns: Self.nodeColumns,
            rows: topology.nodes.map { Self.row($0, in: topology) }, empty: "No node answered.")
        let namespaces = ReportBlock(
            title: "Namespaces of the RedisStore under \(topology.storePrefix)",
            columns: Self.namespaceColumns,
            rows: topology.namespaces.map { placement in
                [
                    TableCell(placement.name),
                    TableCell(placement.node ?? "no node serves its slot", CellStyle(placement.node == nil ? .bad : .text)),
                    TableCell(placement.slot.map(String.init) ?? "–"),
                    TableCell(KeyspaceText.entriesPlacement(placement, isCluster: topology.isCluster), CellStyle(.muted)),
                ]
            },
            empty: topology.namespaceFailure.map { "Cannot read them: \($0)" } ?? "None (no RedisStore wrote here).")
        return [nodes, namespaces]
    }

    /// A node's row: figures it did not give are `–`.
    private static func row(_ node: RedisClusterNode, in topology: RedisTopology) -> [TableCell] {
        let unknown = "–"
        let slots: String
        if !topology.isCluster {
            slots = "all keys"
        } else if node.role == "primary" {
            slots = KeyspaceText.slots(node)
        } else {
            let primary = topology.nodes.first { $0.id == node.primaryID }
            slots = "of " + (primary?.address ?? unknown)
        }
        return [
            TableCell(node.address, CellStyle(node.isDown ? .bad : .text)),
            TableCell(node.role, CellStyle(.muted)),
            TableCell(slots),
            TableCell(node.keys.map(Formatting.count) ?? unknown),
            TableCell(node.usedMemory.map(Formatting.bytes) ?? unknown),
            TableCell(node.opsPerSecond.map(Formatting.count) ?? unknown),
            TableCell(node.isDown ? "DOWN" : "up", CellStyle(node.isDown ? .bad : .good)),
        ]
    }
}

/// The Redis nodes and where the namespaces live.
package struct TopologyRead: ConsoleRead {
    package func run(on source: any ConsoleDataSource) throws -> RedisTopology { try source.topology() }
}
