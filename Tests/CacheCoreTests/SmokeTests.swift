import CacheCore
import Foundation
import Testing

@Suite struct SmokeTests {
    @Test func setThenGet() throws {
        let fixture = try TestStore()
        let cache = try fixture.store.cache("colors", key: Int.self, value: String.self)
        try cache.set("red", for: 10)
        #expect(try cache.get(10) == "red")
        #expect(try cache.count() == 1)
    }
}
