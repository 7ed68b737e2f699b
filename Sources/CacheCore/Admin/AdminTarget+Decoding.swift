extension AdminTarget {
    private enum Case: String, CodingKey { case sweep, clear, clearAll, invalidate, expiry, importEntries, deleteKeys }
    private enum Field: String, CodingKey {
        case namespace, keepingStaleWindow, selector, change, record
        case only = "_0"
    }

    /// Decodes the JSON the synthesized encoder writes (`{"sweep": {"namespace": "colors"}}`);
    /// a sweep audited before ``sweep(namespace:keepingStaleWindow:)`` had its second value
    /// decodes as one that removed every expired entry, as it did.
    public init(from decoder: any Decoder) throws {
        let cases = try decoder.container(keyedBy: Case.self)
        guard let kind = cases.allKeys.first, cases.allKeys.count == 1 else {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(codingPath: decoder.codingPath, debugDescription: "not one admin target"))
        }
        let fields = try cases.nestedContainer(keyedBy: Field.self, forKey: kind)
        switch kind {
        case .sweep:
            self = .sweep(
                namespace: try fields.decodeIfPresent(String.self, forKey: .namespace),
                keepingStaleWindow: try fields.decodeIfPresent(Bool.self, forKey: .keepingStaleWindow) ?? false)
        case .clear: self = .clear(namespace: try fields.decode(String.self, forKey: .namespace))
        case .clearAll: self = .clearAll
        case .invalidate: self = .invalidate(try fields.decode(InvalidationSelector.self, forKey: .only))
        case .expiry:
            self = .expiry(
                selector: try fields.decode(InvalidationSelector.self, forKey: .selector),
                change: try fields.decode(ExpiryChange.self, forKey: .change))
        case .importEntries: self = .importEntries(record: try fields.decode(ImportRecord.self, forKey: .record))
        case .deleteKeys: self = .deleteKeys(try fields.decode(InvalidationSelector.self, forKey: .only))
        }
    }
}
