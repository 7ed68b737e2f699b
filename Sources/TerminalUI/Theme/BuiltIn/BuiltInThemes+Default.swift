extension BuiltInThemes {
    /// `Themes/default.toml`, verbatim.
    static let defaultTheme = """
        # CacheDeck's default theme: dark, for 256-colour terminals. Text keeps the terminal's own
        # background; only bars, selections, the header, status line and dialogs have one.
        description = "Dark (the default)"

        [palette]
        fg = "#d0d0d0"
        faint = "#808080"
        rule = "#585858"
        accent = "#5fafff"
        panel = "#303030"
        raised = "#3a3a3a"
        chosen = "#005f87"
        ok = "#87d75f"
        caution = "#ffaf00"
        danger = "#ff5f5f"
        teal = "#5fd7d7"
        violet = "#af87ff"

        [styles]
        text = { fg = "fg" }
        muted = { fg = "faint" }
        header = { fg = "fg", bg = "panel" }
        headerAccent = { fg = "accent", bg = "panel", attributes = ["bold"] }
        title = { fg = "accent", attributes = ["bold"] }
        border = { fg = "rule" }
        breadcrumb = { fg = "teal" }
        selection = { fg = "#ffffff", bg = "chosen", attributes = ["bold"] }
        selectionInactive = { fg = "fg", bg = "raised" }
        marked = { fg = "caution", attributes = ["bold"] }
        highlightChanged = { fg = "#000000", bg = "#d7d75f" }
        tag = { fg = "violet" }
        good = { fg = "ok" }
        warn = { fg = "caution", attributes = ["bold"] }
        bad = { fg = "danger", attributes = ["bold", "underline"] }
        info = { fg = "accent" }
        graphLow = { fg = "#5f87af" }
        graphMidLow = { fg = "#5fafaf" }
        graphMid = { fg = "ok" }
        graphMidHigh = { fg = "caution" }
        graphHigh = { fg = "danger" }
        bar = { fg = "accent", bg = "panel" }
        barBackground = { fg = "rule", bg = "panel" }
        statusBar = { fg = "fg", bg = "panel" }
        statusError = { fg = "#ffffff", bg = "#af0000", attributes = ["bold"] }
        dialog = { fg = "fg", bg = "raised" }
        dialogBorder = { fg = "accent", bg = "raised" }
        input = { fg = "#ffffff", bg = "#4e4e4e" }
        key = { fg = "accent", attributes = ["bold"] }
        keyHint = { fg = "faint" }

        """
}
