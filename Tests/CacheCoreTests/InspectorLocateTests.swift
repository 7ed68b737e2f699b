import Foundation
import Testing

@testable import CacheCore

/// Locating one entry in an order (for a browser whose cursor follows an entry that moved):
/// its exact position, a cursor whose page starts with it, and the reversed cursor that reads
/// the rows before it, over the pagination fixture's ties, NULLs and hostile keys.
@Suite struct InspectorLocateTests {
    @Test(arguments: InspectorPaginationTests.allSorts)
    func everyEntryIsFoundAtItsPositionWithAPageStartingAtIt(sort: EntrySort) throws {
        let fixture = try InspectorPaginationTests.fixture()
        let inspector = fixture.store.inspector
        for filter in ["", "hits>0 k", "regex:^k[0-4]"] {
            let query = EntryQuery(namespace: "n", sort: sort, filter: try EntryFilter(parsing: filter), limit: 500)
            let order = try inspector.allIDs(query)
            #expect(order.count > 10, "filter '\(filter)'")
            for (position, id) in order.enumerated() {
                let location = try #require(try inspector.locate(id: id, in: query), "id \(id) '\(filter)'")
                #expect(location.position == position, "id \(id) '\(filter)'")
                var from = query
                from.after = location.start
                #expect(try inspector.allIDs(from) == Array(order[position...]), "id \(id) '\(filter)'")
                guard let reversed = location.start.reversed else {
                    #expect(sort.field == .sortValue, "only the sort value's order has no reverse")
                    continue
                }
                var before = query
                before.sort.descending.toggle()
                before.after = reversed
                #expect(try inspector.allIDs(before) == order[..<position].reversed(), "id \(id) '\(filter)'")
            }
        }
    }

    @Test func anEntryThatNoLongerMatchesOrExistsIsNotFound() throws {
        let fixture = try InspectorPaginationTests.fixture()
        let inspector = fixture.store.inspector
        let all = try inspector.allIDs(EntryQuery(namespace: "n", limit: 500))
        let filtered = EntryQuery(namespace: "n", filter: try EntryFilter(parsing: "hits=0"))
        let outside = try #require(
            try all.first { id in try inspector.allIDs(filtered).contains(id) == false })
        #expect(try inspector.locate(id: outside, in: filtered) == nil)
        #expect(try inspector.locate(id: 999_999, in: EntryQuery(namespace: "n")) == nil)
        let other = try fixture.column("SELECT id FROM entries WHERE namespace_id <> (SELECT id FROM namespaces WHERE name = 'n')")
        #expect(try inspector.locate(id: try #require(other.first), in: EntryQuery(namespace: "n")) == nil)
    }
}
