import TerminalUI
import CacheCore
import CacheCoreRedis
import Foundation

/// One Redis key: type, encoding, length, memory, expiry, and a scrolling preview of its value.
package struct RedisKeyView: ConsoleView {
    /// The key's bytes.
    package let key: Data
    /// The key as printable text (the breadcrumb while it loads).
    let keyText: String
    /// The key as last read.
    package internal(set) var detail: RedisKeyDetail?
    /// Whether the key no longer exists.
    package internal(set) var isGone = false
    /// The first preview line shown.
    package internal(set) var scroll = 0

    /// A view of `key`.
    init(key: Data, keyText: String) {
        self.key = key
        self.keyText = keyText
    }

    // MARK: ConsoleView

    package static let title = "Redis key"

    package static let bindings: [KeyBinding<RedisKeyView>] =
        [
            KeyBinding(.previousView, help: "Back to the level") { _, context in
                context.close()
                return []
            }
        ]
        + KeyBinding.listMotion { view, move, context in
            let lines = view.detail.map { RedisKeyScreen.lines($0, columns: context.size.columns).count } ?? 0
            let height = RedisKeyScreen.previewHeight(for: context.size)
            view.scroll = max(0, min(view.scroll.addingClamped(move.delta(page: context.pageRows)), lines - height))
            return []
        }

    package func breadcrumb(in context: ViewContext) -> String? { keyText }

    package mutating func loads(in context: ViewContext, refreshing: Bool) -> [RedisKeyRead] {
        [RedisKeyRead(key: key)]
    }

    package mutating func apply(_ detail: RedisKeyDetail?, for read: RedisKeyRead, in context: inout ViewContext)
        -> [ConsoleEffect]
    {
        self.detail = detail ?? self.detail
        isGone = detail == nil
        return []
    }

    package func draw(in area: Rect, into buffer: inout ScreenBuffer, context: ViewContext, options: RenderOptions) {
        RedisKeyScreen.draw(self, now: context.now, in: area, into: &buffer, options: options)
    }
}

/// A Redis key, or `nil` when it is gone.
package struct RedisKeyRead: ConsoleRead {
    let key: Data

    package func run(on source: any ConsoleDataSource) throws -> RedisKeyDetail? { try source.redisKey(key) }
}
