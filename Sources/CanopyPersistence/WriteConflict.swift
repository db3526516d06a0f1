/// What a ``StateWriter`` throws when storage holds a change it did not make: a row changed or deleted by
/// someone else (another process on the same database) since the app read it.
///
/// The runtime does not retry a conflict as it does a failure. The changes of the ids named are
/// dropped from the batch, so that the write does not overwrite what someone else stored; the rest of
/// the batch stays pending and is written in the next round, without backoff. The conflict is reported
/// through ``PersistenceOptions/onEvent`` as ``PersistenceEvent/conflicted(writer:conflict:)`` and thrown
/// by ``Canopy/StateStore/flush()`` as the ``PersistenceError/underlying`` error, so that the app can read
/// storage back and merge it with ``EntityStore/mergeExternal(upserts:deletions:)``.
///
/// ```swift
/// func write(_ batch: WriteBatch<TaskItem>) async throws {
///     let stale = try database.apply(batch)  // the ids whose row changed since it was read
///     if !stale.isEmpty { throw WriteConflict(ids: stale, reason: "changed by another process") }
/// }
/// ```
///
/// Throw it only for a write that stored nothing (a transaction rolled back), like any error a writer
/// throws: the other ids of the batch come again.
public struct WriteConflict<ID: Hashable & Sendable>: Error, Sendable, CustomStringConvertible {
    /// The ids whose changes storage refused.
    public var ids: [ID]
    /// What storage holds instead, in words, for a message.
    public var reason: String

    /// Creates a conflict.
    ///
    /// - Parameters:
    ///   - ids: The ids whose changes storage refused; at least one.
    ///   - reason: What storage holds instead, in words.
    public init(ids: [ID], reason: String) {
        precondition(!ids.isEmpty, "WriteConflict needs the ids whose changes storage refused")
        self.ids = ids
        self.reason = reason
    }

    /// The ids and the reason.
    public var description: String {
        "\(ids.map { "\($0)" }.joined(separator: ", ")): \(reason)"
    }
}

/// A conflict as the runtime sees it, whatever the type of the ids.
protocol ConflictReport {
    var conflictingIDs: [AnyHashable] { get }
}

extension WriteConflict: ConflictReport {
    var conflictingIDs: [AnyHashable] { ids.map { AnyHashable($0) } }
}
