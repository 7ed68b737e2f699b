extension BuiltInThemes {
    /// `Themes/light.toml`, verbatim.
    static let light = """
        # CacheDeck light theme: dark text for terminals with a light background.
        description = "Light, for light terminal backgrounds"

        [palette]
        fg = "#262626"
        faint = "#6c6c6c"
        rule = "#a8a8a8"
        accent = "#005fd7"
        panel = "#e4e4e4"
        raised = "#eeeeee"
        chosen = "#afd7ff"
        ok = "#008700"
        caution = "#af5f00"
        danger = "#d70000"
        teal = "#008787"
        violet = "#8700af"

        [styles]
        text = { fg = "fg" }
        muted = { fg = "faint" }
        header = { fg = "fg", bg = "panel" }
        headerAccent = { fg = "accent", bg = "panel", attributes = ["bold"] }
        title = { fg = "accent", attributes = ["bold"] }
        border = { fg = "rule" }
        breadcrumb = { fg = "teal" }
        selection = { fg = "#000000", bg = "chosen", attributes = ["bold"] }
        selectionInactive = { fg = "fg", bg = "panel" }
        marked = { fg = "caution", attributes = ["bold"] }
        highlightChanged = { fg = "#000000", bg = "#ffff87" }
        tag = { fg = "violet" }
        good = { fg = "ok" }
        warn = { fg = "caution", attributes = ["bold"] }
        bad = { fg = "danger", attributes = ["bold", "underline"] }
        info = { fg = "accent" }
        graphLow = { fg = "#5f87d7" }
        graphMidLow = { fg = "#008787" }
        graphMid = { fg = "ok" }
        graphMidHigh = { fg = "caution" }
        graphHigh = { fg = "danger" }
        bar = { fg = "accent", bg = "panel" }
        barBackground = { fg = "rule", bg = "panel" }
        statusBar = { fg = "fg", bg = "panel" }
        statusError = { fg = "#ffffff", bg = "danger", attributes = ["bold"] }
        dialog = { fg = "fg", bg = "raised" }
        dialogBorder = { fg = "accent", bg = "raised" }
        input = { fg = "#000000", bg = "#dadada" }
        key = { fg = "accent", attributes = ["bold"] }
        keyHint = { fg = "faint" }

        """
}
