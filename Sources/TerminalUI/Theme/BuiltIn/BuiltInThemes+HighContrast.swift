extension BuiltInThemes {
    /// `Themes/high-contrast.toml`, verbatim.
    static let highContrast = """
        # CacheDeck high-contrast theme: the terminal's own text colour, the brightest ANSI colours
        # (as the user's palette shows them), bold for emphasis, black on yellow for the selection.
        description = "High contrast: bright colours, bold emphasis"

        [styles]
        text = { fg = "default" }
        muted = { fg = "default" }
        header = { fg = "#000000", bg = "#ffffff", attributes = ["bold"] }
        headerAccent = { fg = "#000000", bg = "#ffffff", attributes = ["bold", "underline"] }
        title = { fg = "brightWhite", attributes = ["bold", "underline"] }
        border = { fg = "brightWhite" }
        breadcrumb = { fg = "brightCyan", attributes = ["bold"] }
        selection = { fg = "#000000", bg = "#ffff00", attributes = ["bold"] }
        selectionInactive = { fg = "default", attributes = ["reverse"] }
        marked = { fg = "brightMagenta", attributes = ["bold", "underline"] }
        highlightChanged = { fg = "#000000", bg = "#00ffff", attributes = ["bold"] }
        tag = { fg = "brightCyan" }
        good = { fg = "brightGreen" }
        warn = { fg = "brightYellow", attributes = ["bold"] }
        bad = { fg = "brightRed", attributes = ["bold", "underline"] }
        info = { fg = "brightCyan", attributes = ["bold"] }
        graphLow = { fg = "brightBlue" }
        graphMidLow = { fg = "brightCyan" }
        graphMid = { fg = "brightGreen" }
        graphMidHigh = { fg = "brightYellow" }
        graphHigh = { fg = "brightRed" }
        bar = { fg = "brightWhite" }
        barBackground = { fg = "default" }
        statusBar = { fg = "#000000", bg = "#ffffff" }
        statusError = { fg = "#ffffff", bg = "#d70000", attributes = ["bold"] }
        dialog = { fg = "default" }
        dialogBorder = { fg = "brightYellow", attributes = ["bold"] }
        input = { fg = "default", attributes = ["underline", "bold"] }
        key = { fg = "brightYellow", attributes = ["bold"] }
        keyHint = { fg = "default" }

        """
}
