import Foundation

/// A fresh directory under the system temporary directory, removed with its contents by
/// ``remove()``.
struct TemporaryDirectory {
    let path: String

    /// Creates `<tmp>/<prefix>-XXXXXX` with `mkdtemp`.
    init(prefix: String) throws {
        let template = (NSTemporaryDirectory() as NSString).appendingPathComponent("\(prefix)-XXXXXX")
        var bytes = Array(template.utf8CString)
        guard let created = mkdtemp(&bytes) else {
            throw BenchError("cannot create a temporary directory: \(String(cString: strerror(errno)))")
        }
        path = String(cString: created)
    }

    /// The path of `name` inside the directory.
    func file(_ name: String) -> String { (path as NSString).appendingPathComponent(name) }

    func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}

/// A benchmark that cannot go on (setup failed, a baseline statement failed).
struct BenchError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) { self.description = description }
}
