/// Why ``Canopy/StateStore/flush()`` could not store everything: a writer threw.
///
/// The changes are kept and retried in the background; a later `flush()` tries again at once. When the
/// writer threw a ``WriteConflict`` (``isConflict``), the changes of the ids it names are dropped
/// instead, and the rest is written in the next round.
public struct PersistenceError: Error, CustomStringConvertible {
    /// The writer that failed, by type.
    public let writer: String
    /// What it threw.
    public let underlying: any Error
    /// The writer's failures in a row so far, from 1; for a conflict, 1.
    public let attempt: Int

    /// Whether the writer reported a ``WriteConflict`` rather than a failure.
    public var isConflict: Bool { underlying is any ConflictReport }

    /// The writer, the attempt and the error, for a log or a message.
    public var description: String {
        "\(writer) could not write (attempt \(attempt)): \(underlying)"
    }
}
