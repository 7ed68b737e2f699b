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

    package static let bindings: [KeyBinding] =
        [KeyBinding(.previousView, help: "Back to the level")] + KeyBinding.listMotion

    package func breadcrumb(in context: ViewContext) -> String? { keyText }

    package mutating func handle(_ action: KeyAction, in context: inout ViewContext) -> [ConsoleEffect] {
        if action == .previousView {
            context.close()
            return []
        }
        guard let delta = ListMotion.delta(action, page: context.pageRows) else { return [] }
        let lines = detail.map { RedisKeyScreen.lines($0, columns: context.size.columns).count } ?? 0
        let height = RedisKeyScreen.previewHeight(for: context.size)
        scroll = max(0, min(scroll.addingClamped(delta), lines - height))
        return []
    }

    package mutating func loads(in context: ViewContext, refreshing: Bool) -> [LoadRequest] {
        [.redisKey(view: context.viewID, key: key)]
    }

    package mutating func apply(_ data: LoadedData, for request: LoadRequest, in context: inout ViewContext)
        -> [ConsoleEffect]
    {
        guard case .redisKey(let detail) = data else { return [] }
        self.detail = detail ?? self.detail
        isGone = detail == nil
        return []
    }

    package func draw(in area: Rect, into buffer: inout ScreenBuffer, context: ViewContext, options: RenderOptions) {
        RedisKeyScreen.draw(self, now: context.now, in: area, into: &buffer, options: options)
    }
}
