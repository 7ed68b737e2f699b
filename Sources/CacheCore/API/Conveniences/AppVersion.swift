import Foundation

/// The running app's version, for a namespace version that follows the app: every entry
/// written by another version of the app is discarded when the namespace opens.
///
/// ```swift
/// let sets = try store.cache("sets", key: String.self, value: [String].self,
///                            policy: .default.followingAppVersion())
/// ```
public enum AppVersion {
    /// The environment variable read first.
    public static let environmentKey = "APP_VERSION"

    /// The first of: the environment value `environmentKey`; the main bundle's
    /// `CFBundleShortVersionString` and `CFBundleVersion` (`"1.4 (212)"`); else a fingerprint
    /// of the executable file (its size and modification time), which changes with every
    /// build or deployment of the app.
    public static func current(
        environmentKey: String = environmentKey,
        environment: [String: String] = ProcessInfo.processInfo.environment,
        bundle: Bundle = .main
    ) -> String {
        if let value = environment[environmentKey], !value.isEmpty { return value }
        let info = bundle.infoDictionary ?? [:]
        let short = info["CFBundleShortVersionString"] as? String
        let build = info["CFBundleVersion"] as? String
        switch (short, build) {
        case (let short?, let build?) where short != build: return "\(short) (\(build))"
        case (let short?, _): return short
        case (nil, let build?): return build
        case (nil, nil): return executableFingerprint(bundle.executablePath ?? CommandLine.arguments[0])
        }
    }

    /// `exe-<size>-<modification time in ms>` of the file at `path`, or `"unknown"`.
    static func executableFingerprint(_ path: String) -> String {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
            let size = attributes[.size] as? NSNumber, let modified = attributes[.modificationDate] as? Date
        else { return "unknown" }
        return "exe-\(size.int64Value)-\(modified.millisecondsSince1970)"
    }
}

extension NamespacePolicy {
    /// A copy whose version is ``AppVersion/current(environmentKey:environment:bundle:)``,
    /// optionally after a `prefix` of your own (bump it to drop entries within one app version).
    public func followingAppVersion(prefix: String = "", environmentKey: String = AppVersion.environmentKey)
        -> NamespacePolicy
    {
        version(prefix + AppVersion.current(environmentKey: environmentKey))
    }
}
