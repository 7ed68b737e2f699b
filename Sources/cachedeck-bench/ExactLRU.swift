/// Exact least-recently-used caching simulated in memory: the baseline the store's sampled
/// eviction is compared with. A doubly linked list over arrays indexed by key.
struct ExactLRU {
    private let capacity: Int
    private var previous: [Int]
    private var next: [Int]
    private var resident: [Bool]
    /// Most recently used.
    private var head = -1
    /// Least recently used.
    private var tail = -1
    private var count = 0

    init(capacity: Int, keyspace: Int) {
        self.capacity = capacity
        previous = Array(repeating: -1, count: keyspace)
        next = Array(repeating: -1, count: keyspace)
        resident = Array(repeating: false, count: keyspace)
    }

    /// Requests `key`: whether it was cached (it is afterwards).
    mutating func request(_ key: Int) -> Bool {
        if resident[key] {
            unlink(key)
            pushFront(key)
            return true
        }
        if count == capacity {
            let oldest = tail
            unlink(oldest)
            resident[oldest] = false
            count -= 1
        }
        resident[key] = true
        pushFront(key)
        count += 1
        return false
    }

    private mutating func unlink(_ key: Int) {
        if previous[key] >= 0 { next[previous[key]] = next[key] } else { head = next[key] }
        if next[key] >= 0 { previous[next[key]] = previous[key] } else { tail = previous[key] }
        previous[key] = -1
        next[key] = -1
    }

    private mutating func pushFront(_ key: Int) {
        next[key] = head
        previous[key] = -1
        if head >= 0 { previous[head] = key }
        head = key
        if tail < 0 { tail = key }
    }
}
