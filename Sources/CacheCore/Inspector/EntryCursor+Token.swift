import Foundation

extension EntryCursor {
    /// The cursor as one line of text (URL-safe base64 without padding) for a command line
    /// or a URL; ``init(token:)`` reads it back.
    public var token: String {
        let json = (try? JSONEncoder().encode(self)) ?? Data()
        return json.base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// The cursor a ``token`` holds.
    ///
    /// - Throws: ``InspectorError/invalidCursor`` when `token` is not one, or any of its fields
    ///   is not one a page of its order hands out.
    public init(token: String) throws {
        var base64 = token.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        guard let json = Data(base64Encoded: base64), let cursor = try? JSONDecoder().decode(Self.self, from: json)
        else { throw InspectorError.invalidCursor }
        guard cursor.isWellFormed else { throw InspectorError.invalidCursor }
        self = cursor
    }
}
