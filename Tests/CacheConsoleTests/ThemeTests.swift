import CacheConsole
import TerminalUI
import Foundation
import Testing

@Suite struct ShippedThemeTests {
    private static let themesFolder = packageRoot.appendingPathComponent("Themes")

    @Test func theThemesFolderShipsExactlyTheBuiltInThemes() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.themesFolder.path).sorted()
        #expect(files == ThemeLibrary.builtInNames.map { $0 + ".toml" }.sorted())
        #expect(Set(ThemeLibrary.builtInNames) == ["default", "light", "high-contrast", "monochrome", "colorblind"])
    }

    @Test(arguments: ThemeLibrary.builtInNames)
    func everyShippedThemeParsesAndDefinesEveryRole(name: String) throws {
        let url = Self.themesFolder.appendingPathComponent(name + ".toml")
        let text = try String(contentsOf: url, encoding: .utf8)
        let file = try ThemeFile(parsing: text, source: url.path)
        #expect(file.missingRoles == [])
        #expect(file.inherits == nil)
        #expect(!file.description.isEmpty)
    }

    @Test(arguments: ThemeLibrary.builtInNames)
    func theCompiledInCopyMatchesTheShippedFile(name: String) throws {
        let text = try String(contentsOf: Self.themesFolder.appendingPathComponent(name + ".toml"), encoding: .utf8)
        #expect(
            ThemeLibrary.builtInSource(named: name) == text,
            "Themes/\(name).toml changed: copy it into Sources/CacheConsole/Theme/BuiltIn")
    }

    @Test func theFallbackIsTheBuiltInDefaultAndMonochromeHasNoColour() {
        #expect(Theme.fallback.name == "default")
        #expect(Theme.fallback.usesColor)
        #expect(Theme.fallback[.selection].background == .rgb(RGBColor(red: 0x00, green: 0x5F, blue: 0x87)))
        #expect(Theme.fallback[.text].background == .terminalDefault)
        #expect(Theme.monochrome.name == "monochrome")
        #expect(!Theme.monochrome.usesColor)
        #expect(Theme.monochrome[.selection].attributes == [.reverse, .bold])
    }

    @Test func colourThemesGiveWayToMonochromeOnTerminalsWithoutColour() throws {
        let light = try ThemeLibrary(folders: []).theme(named: "light")
        #expect(light.adapted(to: .xterm256) == light)
        #expect(light.adapted(to: .ansi8) == light)
        #expect(light.adapted(to: .monochrome) == .monochrome)
        let plain = Theme(name: "plain", styles: [.selection: RoleStyle(attributes: .underline)])
        #expect(plain.adapted(to: .monochrome) == plain)
    }

    @Test func cellAttributesAddToTheRoleStyle() {
        let style = Theme.fallback.style(for: CellStyle(.selection, .underline))
        #expect(style.attributes == [.bold, .underline])
        #expect(style.foreground == Theme.fallback[.selection].foreground)
    }

    @Test func colourNamesParse() {
        #expect(ThemeColor(name: "default") == .terminalDefault)
        #expect(ThemeColor(name: "brightBlue") == .ansi(.brightBlue))
        #expect(ThemeColor(name: "#A0b1C2") == .rgb(RGBColor(red: 0xA0, green: 0xB1, blue: 0xC2)))
        for bad in ["#abc", "#12345g", "#+12345", "blue2", "", "#1234567", "Red"] {
            #expect(ThemeColor(name: bad) == nil)
        }
        #expect(RGBColor(red: 10, green: 0, blue: 255).hex == "#0a00ff")
        #expect(ANSIColor.brightWhite.index == 15)
    }
}

@Suite struct ThemeFileErrorTests {
    private func error(in text: String) -> ConfigError? {
        do {
            _ = try ThemeFile(parsing: text, source: "/themes/bad.toml")
            return nil
        } catch {
            return error
        }
    }

    @Test func syntaxErrorsNameTheFileLineAndColumn() throws {
        let failure = try #require(error(in: "description = \"x\"\n[styles]\ntext = { fg = \n"))
        #expect(failure.kind == .syntax)
        #expect(failure.description.hasPrefix("/themes/bad.toml: line 3, column "))
        #expect(!failure.description.contains("\n"))
    }

    @Test(arguments: [
        ("[styles]\nselectoin = { fg = \"red\" }", "styles.selectoin", "unknown role"),
        ("[styles]\ntext = { fg = \"chartreuse\" }", "styles.text.fg", "'chartreuse' is not a colour"),
        ("[styles]\ntext = { fg = 3 }", "styles.text.fg", "expected a string, found an integer"),
        ("[styles]\ntext = { attributes = [\"blink\"] }", "styles.text.attributes", "unknown attribute 'blink'"),
        ("[styles]\ntext = { attributes = \"bold\" }", "styles.text.attributes", "expected an array"),
        ("[styles]\ntext = { colour = \"red\" }", "styles.text.colour", "unknown key"),
        ("[styles]\ntext = \"red\"", "styles.text", "expected a table, found a string"),
        ("colour = \"red\"", "colour", "unknown key"),
        ("inherits = 4", "inherits", "expected a string"),
        ("[palette]\nred = \"#ff0000\"", "palette.red", "a palette name cannot be"),
        ("[palette]\naccent = \"accent\"", "palette.accent", "is not a colour"),
    ])
    func invalidValuesNameTheKey(text: String, location: String, message: String) throws {
        let failure = try #require(error(in: text))
        #expect(failure.kind == (message.hasPrefix("unknown role") || message == "unknown key" ? .unknownName : .invalidValue))
        #expect(failure.location == location)
        #expect(failure.message.contains(message))
        #expect(failure.description == "/themes/bad.toml: \(location): \(failure.message)")
    }

    @Test func hostileTextInErrorsIsSanitized() throws {
        let failure = try #require(error(in: "[styles]\ntext = { fg = \"\\u001b[31m\" }"))
        #expect(failure.message.hasPrefix("'\\e[31m' is not a colour"))
    }

    @Test func paletteNamesAndInheritanceParse() throws {
        let file = try ThemeFile(
            parsing: """
                description = "Mine"
                inherits = "light"
                [palette]
                accent = "#5fafff"
                [styles]
                title = { fg = "accent", bg = "black", attributes = ["bold", "underline"] }
                """, source: "mine.toml")
        #expect(file.inherits == "light")
        #expect(
            file.styles == [
                .title: RoleStyle(
                    foreground: .rgb(RGBColor(red: 0x5F, green: 0xAF, blue: 0xFF)), background: .ansi(.black),
                    attributes: [.bold, .underline])
            ])
        #expect(file.missingRoles.count == StyleRole.allCases.count - 1)
    }
}

@Suite struct ThemeLibraryTests {
    @Test func userThemesComeBeforeShippedAndBuiltInOnes() throws {
        let folder = TemporaryFolder()
        let user = try folder.folder("user")
        let shipped = try folder.folder("shipped")
        try folder.write("description = \"Mine\"\n[styles]\ntext = { fg = \"red\" }\n", to: "user/light.toml")
        try folder.write("description = \"Shipped\"\n", to: "shipped/light.toml")
        try folder.write("description = \"Extra\"\n", to: "shipped/extra.toml")
        let library = ThemeLibrary(folders: [user, shipped])
        let light = try library.theme(named: "light")
        #expect(light.description == "Mine")
        #expect(light[.text].foreground == .ansi(.red))
        #expect(light[.selection] == Theme.fallback[.selection])
        #expect(try library.theme(named: "extra").description == "Extra")
        #expect(try library.theme(named: "colorblind").name == "colorblind")
        #expect(library.themeNames == ["colorblind", "default", "extra", "high-contrast", "light", "monochrome"])
    }

    @Test func aThemeInheritsTheRolesItLeavesOut() throws {
        let folder = TemporaryFolder()
        try folder.write("inherits = \"light\"\n[styles]\ntext = { fg = \"blue\" }\n", to: "mine.toml")
        let library = ThemeLibrary(folders: [folder.url])
        let mine = try library.theme(named: "mine")
        let light = try library.theme(named: "light")
        #expect(mine[.text].foreground == .ansi(.blue))
        #expect(mine[.selection] == light[.selection])
        #expect(mine.description == light.description)
    }

    @Test func aThemeInheritingItsOwnNameExtendsTheNextOneDown() throws {
        let folder = TemporaryFolder()
        try folder.write("inherits = \"default\"\n[styles]\ntext = { fg = \"green\" }\n", to: "default.toml")
        let theme = try ThemeLibrary(folders: [folder.url]).theme(named: "default")
        #expect(theme[.text].foreground == .ansi(.green))
        #expect(theme[.selection] == Theme.fallback[.selection])
    }

    @Test func inheritanceCyclesAreErrors() throws {
        let folder = TemporaryFolder()
        try folder.write("inherits = \"b\"\n", to: "a.toml")
        try folder.write("inherits = \"a\"\n", to: "b.toml")
        #expect(throws: ConfigError.self) { try ThemeLibrary(folders: [folder.url]).theme(named: "a") }
        do {
            _ = try ThemeLibrary(folders: [folder.url]).theme(named: "a")
        } catch {
            #expect(error.kind == .inheritanceCycle)
            #expect(error.source.hasSuffix("a.toml"))
        }
    }

    @Test func missingAndMalformedNamesAreReported() {
        let library = ThemeLibrary(folders: [])
        #expect(
            throws: ConfigError(
                .invalidName, source: "'../etc/passwd'",
                message: "not a theme name (use letters, digits, '.', '_' and '-')")
        ) {
            try library.theme(named: "../etc/passwd")
        }
        do {
            _ = try library.theme(named: "solarized")
        } catch {
            #expect(error.kind == .notFound)
            #expect(error.description.contains("available: colorblind, default, high-contrast, light, monochrome"))
        }
    }

    @Test func aBrokenThemeFallsBackToTheDefaultWithTheReason() throws {
        let folder = TemporaryFolder()
        let file = try folder.write("[styles]\ntext = { fg = \"nope\" }\n", to: "broken.toml")
        let (theme, error) = ThemeLibrary(folders: [folder.url]).themeOrFallback(named: "broken")
        #expect(theme == Theme.fallback)
        #expect(error?.source == file.path)
        #expect(error?.location == "styles.text.fg")
        let (fine, none) = ThemeLibrary(folders: [folder.url]).themeOrFallback(named: "light")
        #expect(fine.name == "light")
        #expect(none == nil)
    }

    @Test func unreadableFilesAreReported() throws {
        let folder = TemporaryFolder()
        try Data([0x64, 0xFF]).write(to: folder.url.appendingPathComponent("binary.toml"))
        #expect(throws: ConfigError.self) { try ThemeLibrary(folders: [folder.url]).theme(named: "binary") }
    }

    @Test func shippedFoldersAreFoundBesideAnInstalledBinaryAndInACheckout() throws {
        let folder = TemporaryFolder()
        let installed = try folder.folder("prefix/share/cachedeck/themes")
        try folder.write("", to: "prefix/bin/cachedeck")
        let checkout = try folder.folder("package/Themes")
        try folder.write("// swift-tools-version: 6.0\n", to: "package/Package.swift")
        try folder.write("", to: "package/.build/debug/cachedeck")
        let fromInstall = ThemeLibrary.shippedFolders(
            executable: folder.url.appendingPathComponent("prefix/bin/cachedeck"))
        let fromCheckout = ThemeLibrary.shippedFolders(
            executable: folder.url.appendingPathComponent("package/.build/debug/cachedeck"))
        #expect(fromInstall.map(\.standardizedFileURL.path) == [installed.standardizedFileURL.path])
        #expect(fromCheckout.map(\.standardizedFileURL.path) == [checkout.standardizedFileURL.path])
        #expect(ThemeLibrary.shippedFolders(executable: nil) == [])
    }

    @Test func theStandardLibrarySearchesTheUserFolderFirst() throws {
        let library = ThemeLibrary(environment: ["XDG_CONFIG_HOME": "/xdg"], executable: nil)
        #expect(library.folders.map(\.path) == ["/xdg/cachedeck/themes"])
    }
}
