import TerminalUI

/// A read a view needs, and what it brings back. Each view declares its own (next to the
/// view), so a new view adds a read without touching the console's other views.
package protocol ConsoleRead: Sendable, Hashable {
    /// What the read brings back.
    associatedtype Output: Sendable, Hashable
    /// Runs the read on `source`.
    func run(on source: any ConsoleDataSource) throws -> Output
}

/// The Overview snapshot (also feeds the header, completions and every view that lists
/// namespaces).
package struct OverviewRead: ConsoleRead {
    package func run(on source: any ConsoleDataSource) throws -> OverviewSnapshot { try source.overview() }
}

/// The read of a view without data of its own.
package struct NoRead: ConsoleRead {
    package func run(on source: any ConsoleDataSource) throws -> Bool { false }
}

/// A read tagged with the view it is for.
package struct LoadRequest: Sendable, Hashable {
    /// The view the read is for (`nil`: the Overview snapshot, which every view gets).
    package let viewID: Int?
    /// What to read.
    package let read: any ConsoleRead

    /// `read` for the view with id `viewID`.
    package init(viewID: Int?, read: any ConsoleRead) {
        self.viewID = viewID
        self.read = read
    }

    /// The Overview snapshot.
    package static let overview = LoadRequest(viewID: nil, read: OverviewRead())

    /// Runs the read on `source`.
    func perform(on source: any ConsoleDataSource) throws -> LoadedData {
        LoadedData(try read.run(on: source))
    }

    package static func == (first: LoadRequest, second: LoadRequest) -> Bool {
        first.viewID == second.viewID && AnyHashable(first.read) == AnyHashable(second.read)
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(viewID)
        hasher.combine(AnyHashable(read))
    }
}

/// What a ``LoadRequest`` read: the `Output` of its ``ConsoleRead``.
package struct LoadedData: Sendable, Hashable {
    /// The value read.
    package let value: any Sendable & Hashable

    /// Wraps `value`.
    package init(_ value: any Sendable & Hashable) {
        self.value = value
    }

    package static func == (first: LoadedData, second: LoadedData) -> Bool {
        AnyHashable(first.value) == AnyHashable(second.value)
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(AnyHashable(value))
    }
}

/// A finished read: what was asked, what came back (or the error), and how long it took.
package struct LoadResult: Sendable, Hashable {
    /// The request.
    package var request: LoadRequest
    /// The data, or the error as one line.
    package var outcome: Result<LoadedData, ConsoleError>
    /// How long the read took.
    package var duration: Duration

    /// A result with these parts.
    package init(request: LoadRequest, outcome: Result<LoadedData, ConsoleError>, duration: Duration) {
        self.request = request
        self.outcome = outcome
        self.duration = duration
    }
}
