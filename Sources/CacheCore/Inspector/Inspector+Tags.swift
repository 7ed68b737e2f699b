extension Inspector {
    /// The tags entries of the store carry, sorted, at most `limit` of them (for completion).
    public func tags(limit: Int = 500) throws -> [String] {
        try store.database.read { connection in
            var tags: [String] = []
            while tags.count < limit, let next = try connection.tag(after: tags.last ?? "") { tags.append(next) }
            return tags
        }
    }
}
