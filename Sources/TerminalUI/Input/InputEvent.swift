/// Something the terminal reports: a key, a mouse action (when mouse reporting is on), or a
/// new terminal size. (A key alone is a ``Key``; this is everything the console reacts to.)
package enum InputEvent: Hashable, Sendable {
    /// A key press.
    case key(Key)
    /// A mouse press, release or wheel step.
    case mouse(MouseEvent)
    /// The terminal now has this size; the next frame must be drawn at it.
    case resize(Size)
}

/// A mouse action at a cell.
package struct MouseEvent: Hashable, Sendable {
    /// A mouse button.
    package enum Button: Hashable, Sendable {
        /// The primary button.
        case left
        /// The middle button (or wheel click).
        case middle
        /// The secondary button.
        case right
    }

    /// What happened.
    package enum Kind: Hashable, Sendable {
        /// A button went down.
        case press(Button)
        /// A button was clicked twice in quick succession.
        case doubleClick(Button)
        /// A button came up.
        case release(Button)
        /// The wheel moved up one step.
        case scrollUp
        /// The wheel moved down one step.
        case scrollDown
    }

    /// What happened.
    package var kind: Kind
    /// Where.
    package var position: Point

    /// A `kind` event at `position`.
    package init(kind: Kind, position: Point) {
        self.kind = kind
        self.position = position
    }
}
