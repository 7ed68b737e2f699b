import Foundation

/// The path of the package's executable `name`, which `swift build --build-tests` puts beside
/// the test bundle; the environment variable `override`, when set, names it instead.
public func builtExecutable(_ name: String, override: String?) throws -> String {
    let manager = FileManager.default
    if let override, let explicit = ProcessInfo.processInfo.environment[override], !explicit.isEmpty {
        guard manager.isExecutableFile(atPath: explicit) else {
            throw SupportFailure("\(override)=\(explicit) is not executable")
        }
        return explicit
    }
    var folders: [String] = []
    if let executable = try? manager.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
        folders.append((executable as NSString).deletingLastPathComponent)
    }
    folders.append((CommandLine.arguments[0] as NSString).deletingLastPathComponent)
    for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
        folders.append((bundle.bundlePath as NSString).deletingLastPathComponent)
    }
    folders.append((Bundle.main.bundlePath as NSString).deletingLastPathComponent)
    var seen = Set<String>()
    let searched = folders.filter { !$0.isEmpty && seen.insert($0).inserted }
        .map { ($0 as NSString).appendingPathComponent(name) }
    guard let found = searched.first(where: manager.isExecutableFile(atPath:)) else {
        throw SupportFailure(
            "the executable '\(name)' was not found (looked at \(searched.joined(separator: ", "))); build every "
                + "target first (`swift build --build-tests`)" + (override.map { " or set \($0)" } ?? ""))
    }
    return found
}
