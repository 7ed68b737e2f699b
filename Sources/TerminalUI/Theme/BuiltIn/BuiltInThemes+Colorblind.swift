extension BuiltInThemes {
    /// `Themes/colorblind.toml`, verbatim.
    static let colorblind = """
        # CacheDeck colour-blind-safe theme: the Okabe–Ito palette (distinguishable with the common
        # forms of colour blindness). Good is blue and bad is vermillion, never green against red,
        # and states that matter also carry an attribute so colour is never the only cue.
        description = "Colour-blind safe (Okabe–Ito palette), dark"

        [palette]
        fg = "#d0d0d0"
        faint = "#8a8a8a"
        rule = "#5c5c5c"
        panel = "#303030"
        raised = "#3a3a3a"
        orange = "#e69f00"
        skyBlue = "#56b4e9"
        bluishGreen = "#009e73"
        yellowish = "#f0e442"
        deepBlue = "#0072b2"
        vermillion = "#d55e00"
        purple = "#cc79a7"

        [styles]
        text = { fg = "fg" }
        muted = { fg = "faint" }
        header = { fg = "fg", bg = "panel" }
        headerAccent = { fg = "skyBlue", bg = "panel", attributes = ["bold"] }
        title = { fg = "skyBlue", attributes = ["bold"] }
        border = { fg = "rule" }
        breadcrumb = { fg = "skyBlue" }
        selection = { fg = "#000000", bg = "skyBlue", attributes = ["bold"] }
        selectionInactive = { fg = "fg", bg = "raised" }
        marked = { fg = "orange", attributes = ["bold", "underline"] }
        highlightChanged = { fg = "#000000", bg = "yellowish" }
        tag = { fg = "purple" }
        good = { fg = "skyBlue" }
        warn = { fg = "orange", attributes = ["bold"] }
        bad = { fg = "vermillion", attributes = ["bold", "underline"] }
        info = { fg = "bluishGreen" }
        graphLow = { fg = "deepBlue" }
        graphMidLow = { fg = "skyBlue" }
        graphMid = { fg = "yellowish" }
        graphMidHigh = { fg = "orange" }
        graphHigh = { fg = "vermillion" }
        bar = { fg = "skyBlue", bg = "panel" }
        barBackground = { fg = "rule", bg = "panel" }
        statusBar = { fg = "fg", bg = "panel" }
        statusError = { fg = "#000000", bg = "vermillion", attributes = ["bold"] }
        dialog = { fg = "fg", bg = "raised" }
        dialogBorder = { fg = "skyBlue", bg = "raised" }
        input = { fg = "#ffffff", bg = "#4e4e4e" }
        key = { fg = "orange", attributes = ["bold"] }
        keyHint = { fg = "faint" }

        """
}
