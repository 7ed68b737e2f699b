import CHiredis
import Foundation

/// What one reply from a server may hold, and how long it may take: a server is not trusted
/// to send replies of a sane size or to finish them. hiredis would allocate whatever a header
/// announces (`*2147483647`, `$2147483647`) and wait for the rest one read timeout at a time;
/// a ``RedisConnection`` stops at these bounds instead and drops the connection.
package struct RedisReplyLimits: Sendable, Equatable {
    /// The bytes one reply may take on the wire (a value, or a whole array).
    package var bytes: Int
    /// The values (array elements, strings, numbers, nulls) one reply may hold.
    package var items: Int

    /// 64 MiB and 500,000 items: far above what CacheDeck asks for (a value, a batch of 1,000
    /// keys, a preview of 100 items), far below what would exhaust memory.
    package static let standard = RedisReplyLimits(bytes: 64 << 20, items: 500_000)

    package init(bytes: Int, items: Int) {
        self.bytes = bytes
        self.items = items
    }
}

/// The items a reply may still create; hiredis hands it to the object callbacks below through
/// the reader's `privdata`.
struct ReplyItemBudget {
    var left: Int
    var isExceeded = false
}

/// hiredis' own reply constructors, wrapped so each counts against the reader's
/// ``ReplyItemBudget`` and an array header above the budget allocates nothing.
enum BudgetedReplyFunctions {
    /// The table to install in a reader (its `privdata` must point to a ``ReplyItemBudget``).
    nonisolated(unsafe) static let table: UnsafeMutablePointer<redisReplyObjectFunctions> = {
        let table = UnsafeMutablePointer<redisReplyObjectFunctions>.allocate(capacity: 1)
        table.initialize(
            to: redisReplyObjectFunctions(
                createString: { task, text, length in
                    spend(task, 1) ? defaults?.createString?(task, text, length) : nil
                },
                createArray: { task, elements in
                    spend(task, 1 + max(0, Int(elements))) ? defaults?.createArray?(task, elements) : nil
                },
                createInteger: { task, value in spend(task, 1) ? defaults?.createInteger?(task, value) : nil },
                createNil: { task in spend(task, 1) ? defaults?.createNil?(task) : nil },
                freeObject: { object in defaults?.freeObject?(object) }))
        return table
    }()

    /// The constructors hiredis installs in a new reader (`nil` only when hiredis could not
    /// allocate one: every reply is refused then).
    private static let defaults: redisReplyObjectFunctions? = {
        guard let reader = redisReaderCreate() else { return nil }
        defer { redisReaderFree(reader) }
        return reader.pointee.fn.pointee
    }()

    /// Takes `count` items from the budget of `task`'s reader (an element of an array was
    /// counted when the array was announced: it is free); `false`, and the budget marked
    /// exceeded, when that would exceed it.
    private static func spend(_ task: UnsafePointer<redisReadTask>?, _ count: Int) -> Bool {
        guard let task, let budget = task.pointee.privdata?.assumingMemoryBound(to: ReplyItemBudget.self) else {
            return true
        }
        let cost = count - (task.pointee.parent == nil ? 0 : 1)
        guard budget.pointee.left >= cost else {
            budget.pointee.isExceeded = true
            return false
        }
        budget.pointee.left -= cost
        return true
    }
}
