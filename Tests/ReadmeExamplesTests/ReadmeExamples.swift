// The code examples of README.md and docs/*.md, verbatim: every line of each ```swift block
// is here, in order (`ReadmeSyncTests` checks it), wrapped in functions that are compiled but
// never run. Edit the documents and this file together.
// swift-format-ignore-file

import CacheCore
import CacheCoreRedis
import CacheCoreService
import Foundation
import Logging
import ServiceLifecycle

struct Color: CacheEntity {
    static let cacheNamespace = "colors"
    static let cachePolicy: NamespacePolicy? = NamespacePolicy(expiration: .never)
    let id: Int
    let name: String
    var cacheKey: Int { id }                      // stored at colors/10
}

struct Part: Codable, Sendable {
    let number: String
}

struct GuestKey: Codable, Sendable {
    let tenant: String
    let list: String
}

/// An app's tenant, as the app models it.
struct Tenant: Sendable {
    let id: String
}

protocol PartsAPI: Sendable {
    func part(_ number: String) async throws -> Part
    func featuredPart(for tenant: Tenant) async throws -> Part
}

func showBanner(_ text: String) {}

// MARK: Using CacheCore

func usingCacheCore() throws {

// ~/.cache/cachedeck/lego.sqlite (or $XDG_CACHE_HOME/cachedeck/lego.sqlite), mode 0600
let store = try CacheStore(named: "lego")

// Entities declare their namespace and key.
let colors = try store.entities(Color.self)
try colors.put(Color(id: 10, name: "Bright Green"))
let green = try colors.get(10)                    // Color?

// Any Codable key and value; JSON on disk so tools can show it.
let sets = try store.cache("sets", key: String.self, value: [String].self, policy: .default)  // 24 h
try sets.set(["3001", "3003"], for: "10294-1", tags: ["theme:titanic"])
try sets.set(["3010"], for: "6020-1", expiration: .after(.milliseconds(1500)))
let parts = try sets.get("10294-1", maxAge: .seconds(600))   // nil once 600 s old or more

// Subscripts (errors are logged: a failed read is a miss), units, clearing.
sets["6021-1"] = ["3062b"]
sets["6021-1"] = nil                              // removes
try sets.set(["3001"], for: "6022-1", expiration: .minutes(30))   // .seconds .minutes .hours .days
try sets.clear()                                  // this namespace; store.clear() empties the file
                                                  // and gives its space back (see "Space")

// Keep only the newest 1,000 messages; bump the version to drop every old entry.
let mail = try store.cache("mail", key: Int.self, value: String.self,
                           policy: NamespacePolicy.shortTerm.keepingNewest(1000).version("v2"))

// Stale-if-error: an expired value (within the policy's staleWindow, 1 h by default), flagged.
if let stale = try sets.getStale("6020-1"), stale.isStale { print("serving stale until refreshed") }

try store.sweepExpired()                          // every expired entry, in bounded batches; the count
try store.close()                                 // a second close does nothing
}

// MARK: Memory tier, loaders and invalidation

func memoryTierLoadersAndInvalidation(
    store: CacheStore, api: some PartsAPI, popular: [String], acme: Tenant, globex: Tenant
) async throws {
// Memory in front of the file: reads try memory first; a file hit is copied into memory with
// its original expiry; writes go to both. Presets: .memoryOnly, .databaseOnly, .hybrid,
// .performance (hybrid + write-behind every second), .disabled. Named sizes: .memory(.large).
let parts = try store.cache("parts", key: String.self, value: Part.self, policy: .hybrid)
print(parts.memoryUsage.entries, parts.memoryUsage.bytes)

// Read-through: one load per key however many callers wait; stored with the policy.
let part = try await parts.value(for: "3001") { number in try await api.part(number) }

// Stale-while-revalidate and stale-if-error (within the policy's staleWindow):
let read = try await parts.read("3001", refreshAfter: .seconds(600)) { try await api.part($0) }
if read.isStale { showBanner("offline: showing cached data") }

// Warm a list of keys, four loads at a time.
let report = await parts.warm(popular, concurrency: 4) { try await api.part($0) }

// A loader or warmer that needs the tenant gets it as an argument (any Sendable type) instead
// of parsing it back out of the key (keys still differ per tenant: one load runs per key).
let featured = try await parts.value(for: "featured/acme", tenant: acme) { _, tenant in try await api.featuredPart(for: tenant) }
let warmed = await parts.warm([(key: "featured/acme", tenant: acme), (key: "featured/globex", tenant: globex)]) {
    _, tenant in try await api.featuredPart(for: tenant)
}
_ = (featured, warmed)

// Invalidate by key, keys, prefix, tag, namespace or everything; each call says what it removed.
try parts.invalidate(prefix: "30")
try store.invalidate(.tag("tenant:acme"))

// Dependency rules and domain events, declared once; parameters carry across, so a rule for
// tenant acme never touches tenant acme2's keys. `{id?}` is optional: without an id the
// selector is skipped. An event no rule declares does nothing.
var rules = InvalidationRules()
rules.rule(when: .key(namespace: "planner", key: "guests_{tenant}"),
           invalidate: [.key(namespace: "planner", key: "guest_stats_{tenant}"),
                        .key(namespace: "planner", key: "seating_chart_{tenant}")])
rules.event("guestCreated", invalidates: [.key(namespace: "planner", key: "guests_{tenant}")])
rules.event("vendorUpdated", invalidates: [.key(namespace: "vendors", key: "vendor_list_{tenant}"),
                                           .key(namespace: "vendors", key: "vendor_detail_{tenant}_{id?}")])
let planner = try CacheStore(named: "planner", options: StoreOptions(invalidationRules: rules))
let result = try planner.invalidate(event: "guestCreated", parameters: ["tenant": "acme"])
try planner.invalidate(event: InvalidationEvent("vendorUpdated", parameters: ["tenant": "acme", "id": nil]))

// Typed keys in selectors and rules: the key's canonical text, placeholders inside.
let guests = try planner.cache("planner", key: GuestKey.self, value: [String].self)
try planner.invalidate(guests.selector(for: GuestKey(tenant: "acme", list: "vip")))
rules.rule(when: try .entry(GuestKey(tenant: "{tenant}", list: "vip"), in: "planner"),
           invalidate: [.key(namespace: "planner", key: "guest_stats_{tenant}")])
}

// MARK: Swift concurrency

func swiftConcurrency(store: CacheStore, brick: Part) async throws {
// The same calls, async: memory hits answer inline, file calls run on a pool of threads of
// their own (BlockingIOPool), never blocking the cooperative pool.
let fast = try store.cache("parts", key: String.self, value: Part.self, policy: .hybrid).async
try await fast.set(brick, for: "3001")
let cached = try await fast.get("3001")
try await store.async.flush()

// Servers: maintenance and telemetry as a swift-service-lifecycle Service
// (library CacheCoreService); graceful shutdown stops them and closes the store.
let group = ServiceGroup(configuration: ServiceGroupConfiguration(
    services: [CacheStoreService(store: store)], logger: Logger(label: "app")))
try await group.run()
}

// MARK: Redis

func redis() throws {

// The same Cache API on a Redis (or Valkey) server that many hosts share. The password may
// also come from REDISCLI_AUTH, as for redis-cli.
let shared = try RedisStore(url: "redis://cache.internal:6379/0")
let prices = try shared.cache("prices", key: String.self, value: Int.self, policy: .hybrid)
try prices.set(1299, for: "10294-1", tags: ["tenant:acme"])
let price = try prices.get("10294-1")           // near cache in front, kept coherent by push
try shared.invalidate(.tag("tenant:acme"))      // every host drops its copies
let everyHost = try shared.sharedStatistics()   // every client's counters, per namespace
shared.close()
}

// MARK: Admin actions

func adminActions(store: CacheStore) throws {
let admin = store.admin                             // CacheStore(path:, options: .inspection(writable: true))
let impact = try admin.preview(.clear(namespace: "tiles"))   // entries, bytes, share of recent hits
let outcome = try admin.run(.invalidate(.tag("zoom:12", namespace: "tiles")))
try admin.restore(outcome.auditID)                  // undo, within the trash retention (7 days)
for action in try admin.auditLog() { print(action.id, action.target as Any, action.entries) }
}

// MARK: Statistics, telemetry and maintenance

func statisticsTelemetryAndMaintenance(store: CacheStore, colors: Cache<Int, Color>, path: String) throws {
let stats = store.statistics()                    // this process, since open (or reset)
print(stats.overall.hitRate, stats["colors"].health)   // .excellent ≥ 0.8 … .unknown < 10 requests
let before = store.statistics()
// … a minute later …
let lastMinute = store.statistics() - before      // snapshots subtract
store.resetStatistics()
print(colors.statistics().averageLoadPenalty)     // one namespace, from its handle
print(store.statistics().report)                  // the same as text, overall and per namespace
print(try colors.hitCount(for: 10) ?? 0)          // one entry's reads from the file, all processes

// Every process on the file, as a console sees it (works on a read-only store):
let console = try CacheStore(path: path, options: .inspection())
let live = try console.telemetry(since: Date(timeIntervalSinceNow: -60))   // 1 s buckets
for point in live.namespaces["colors"] ?? [] { print(point.start, point.statistics.hitRate) }
for client in try console.clients() where client.isLive { print(client.pid, client.program) }
print(try console.size())                         // file, WAL, payload and free bytes apart

try store.startMaintenance(MaintenanceOptions(interval: .seconds(60)))   // idempotent
store.stopMaintenance()                           // also on close()
}

// MARK: Querying a cache

struct Message: Codable, Sendable {
    let account: Int
    let id: Int
    let folder: String
    let isRead: Bool
}

func queryingACache(store: CacheStore, messages: [Message]) async throws {
let mail = try store.cache("mail", key: String.self, value: Message.self)
// saveAll: one transaction, each message with its own tags
try mail.set(messages.map { (key: "\($0.account)/\($0.id)", value: $0, tags: [$0.folder] + ($0.isRead ? [] : ["unread"])) })

let newest = CacheQuery(prefix: "acct-7/", tags: ["inbox", "unread"],
                        orderedBy: EntrySort(.created, descending: true), limit: 50)
let page = try mail.entries(newest)               // CachePage: [CachedEntry(key, value, createdAt, expiresAt, tags)]
let next = try mail.entries(CacheQuery(prefix: "acct-7/", tags: ["inbox", "unread"],
                                       orderedBy: EntrySort(.created, descending: true), after: page.next))
let unread = try mail.count(matching: CacheQuery(prefix: "acct-7/", tags: ["unread"]))
let large = try mail.entries(CacheQuery(filter: try EntryFilter(parsing: "size>10KB age<1d")))
let all = try store.count()                       // live entries of every namespace
let fromAnActor = try await mail.async.entries(newest)
_ = (next, unread, large, all, fromAnActor)
}

// MARK: Inspecting a cache file

func inspectingACacheFile(path: String) throws {
let inspector = try CacheStore(path: path, options: .inspection()).inspector
let summary = try inspector.summary()                    // sizes, pages, format, counters
let namespaces = try inspector.namespaces()              // live/expired counts, bytes, policy
let query = EntryQuery(namespace: "sets", sort: EntrySort(.size, descending: true),
                       filter: try EntryFilter(parsing: "size>1KB hits=0 user_"))
let page = try inspector.entries(query)                  // then EntryQuery(…, after: page.next)
let detail = try inspector.entry(id: page.rows[0].id)    // pretty JSON or a hex dump
let timeline = try inspector.expiryTimeline()            // buckets + the next 48 hours
let largest = try inspector.top(.largest, limit: 20)     // also .hottest, .neverRead, .oldest
}
