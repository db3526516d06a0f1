/// Turns the save effect's whole-board snapshots into batches of what changed, for ``TaskWriter``.
///
/// Until CanopyPersistence records the changes as reducers make them, the difference is computed here,
/// against the last snapshot that was written: tasks that are new or differ are upserted, tasks that
/// are gone are deleted. Writes are serialized by the actor, and a failed write leaves the last
/// written snapshot as it was, so the next attempt carries the same changes.
actor SnapshotWriter {
    private let writer: TaskWriter
    private var written: [Int: TaskItem]

    init(writer: TaskWriter, loaded: [TaskItem]) {
        self.writer = writer
        self.written = Dictionary(loaded.map { ($0.id, $0) }, uniquingKeysWith: { _, last in last })
    }

    /// Writes what changed between the last written snapshot and `snapshot`.
    func write(_ snapshot: TasksSnapshot) async throws {
        let batch = Self.batch(from: written, to: snapshot.tasks)
        guard !batch.upserts.isEmpty || !batch.deletions.isEmpty else { return }
        try await writer.write(batch)
        written = Dictionary(snapshot.tasks.map { ($0.id, $0) }, uniquingKeysWith: { _, last in last })
    }

    /// The tasks of `current` that are new or differ from `previous`, and the ids of `previous` that
    /// `current` no longer has (in id order).
    static func batch(from previous: [Int: TaskItem], to current: [TaskItem]) -> WriteBatch<TaskItem> {
        let upserts = current.filter { previous[$0.id] != $0 }
        let kept = Set(current.map(\.id))
        let deletions = previous.keys.filter { !kept.contains($0) }.sorted()
        return WriteBatch(upserts: upserts, deletions: deletions, order: nil)
    }
}
