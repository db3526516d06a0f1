/// The actions an ``ActionRecorder`` has recorded and not yet handed to its writer.
///
/// Not generic: the tree's queue fills it through unspecialised code, where a generic buffer would cost
/// a type-metadata lookup per action.
struct ActionLogBuffer: Sendable {
    /// One recorded action, its store and its time.
    struct Pending: Sendable {
        let action: any Encodable & Sendable
        let store: StoreID
        let time: Double
    }

    private(set) var pending: [Pending] = []
    private var isDrainScheduled = false
    private var isClosed = false

    /// Adds an action; returns whether the caller must schedule a drain (none is scheduled or running).
    mutating func append(_ action: any Encodable & Sendable, store: StoreID, time: Double) -> Bool {
        guard !isClosed else { return false }
        pending.append(Pending(action: action, store: store, time: time))
        guard !isDrainScheduled else { return false }
        isDrainScheduled = true
        return true
    }

    /// Swaps the pending actions with `batch`, which the drain has emptied; returns `false`, and lets
    /// the next append schedule a drain again, when there are none.
    mutating func take(into batch: inout [Pending]) -> Bool {
        guard !pending.isEmpty else {
            isDrainScheduled = false
            return false
        }
        swap(&pending, &batch)
        return true
    }

    /// Records nothing from now on.
    mutating func close() {
        isClosed = true
    }
}
