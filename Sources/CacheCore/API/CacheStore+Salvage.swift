extension CacheStore {
    /// Rescues the cache file at `path` from damaged pages: copies every entry that can still
    /// be read into a fresh file, moves the damaged file aside as `<file>.corrupt-<timestamp>`
    /// and puts the fresh one in its place. Close every store on the file first.
    ///
    /// A store opened with ``DamagedFilePolicy/quarantine`` does this on its own when it finds
    /// a damaged root page; operators run it through `cachedeck check --fix`.
    ///
    /// - Returns: where the damaged file went and how many entries were salvaged.
    public static func salvage(path: String, options: StoreOptions = StoreOptions()) throws -> QuarantinedFile {
        try StoreFile.salvage(path: path, reason: "damaged pages", options: options)
    }
}
