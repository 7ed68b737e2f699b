/// The shipped themes, compiled in: an installed `cachedeck` binary is self-contained and
/// needs no resource bundle (SwiftPM resources on Linux live in a bundle beside the
/// executable, and are lost when the binary alone is copied or installed). Each source is a
/// verbatim copy of its file in `Themes/`; a test fails when the two differ.
enum BuiltInThemes {
    /// Theme name → TOML source, in the order themes are listed.
    static let sources: KeyValuePairs<String, String> = [
        "default": defaultTheme,
        "light": light,
        "high-contrast": highContrast,
        "monochrome": monochrome,
        "colorblind": colorblind,
    ]

    /// The source of the built-in theme `name`.
    static func source(named name: String) -> String? {
        sources.first { $0.key == name }?.value
    }
}
