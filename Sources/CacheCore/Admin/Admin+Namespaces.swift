extension Admin {
    /// Throws ``InspectorError/noSuchNamespace(_:)`` when `target` names a namespace the file
    /// does not have: a typo must fail, not succeed at removing nothing.
    func requireNamespace(of target: AdminTarget) throws {
        guard let name = target.namespace else { return }
        let exists = try store.database.read { try $0.inspectedNamespace(named: name) != nil }
        if !exists { throw InspectorError.noSuchNamespace(name) }
    }
}
