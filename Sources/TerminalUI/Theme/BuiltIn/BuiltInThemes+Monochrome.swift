extension BuiltInThemes {
    /// `Themes/monochrome.toml`, verbatim.
    static let monochrome = """
        # CacheDeck monochrome theme: attributes only, no colours. The console switches to it by
        # itself when the terminal has no colours or NO_COLOR is set.
        description = "No colours: bold, dim, underline and reverse only"

        [styles]
        text = {}
        muted = { attributes = ["dim"] }
        header = { attributes = ["reverse"] }
        headerAccent = { attributes = ["reverse", "bold"] }
        title = { attributes = ["bold"] }
        border = {}
        breadcrumb = { attributes = ["underline"] }
        selection = { attributes = ["reverse", "bold"] }
        selectionInactive = { attributes = ["underline"] }
        marked = { attributes = ["bold", "underline"] }
        highlightChanged = { attributes = ["bold"] }
        tag = { attributes = ["underline"] }
        good = {}
        warn = { attributes = ["bold"] }
        bad = { attributes = ["bold", "underline"] }
        info = {}
        graphLow = { attributes = ["dim"] }
        graphMidLow = { attributes = ["dim"] }
        graphMid = {}
        graphMidHigh = { attributes = ["bold"] }
        graphHigh = { attributes = ["bold"] }
        bar = {}
        barBackground = { attributes = ["dim"] }
        statusBar = { attributes = ["reverse"] }
        statusError = { attributes = ["reverse", "bold"] }
        dialog = {}
        dialogBorder = { attributes = ["bold"] }
        input = { attributes = ["underline"] }
        key = { attributes = ["bold"] }
        keyHint = { attributes = ["dim"] }

        """
}
