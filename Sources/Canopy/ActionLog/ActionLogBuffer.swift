/// The actions an ``ActionRecorder`` has recorded and not yet handed to its writer.
///
/// Generic and inlinable: the recorder's middleware is compiled in the app's module for the app's
/// action type, so appending an action copies it into a typed array, with no existential box, no
/// allocation (once the array has grown) and no runtime metadata lookup on the tree's queue.
@usableFromInline
struct ActionLogBuffer<Action: Sendable>: Sendable {
    /// One recorded action, its store and its time.
    @usableFromInline
    struct Entry: Sendable {
        @usableFromInline let action: Action
        @usableFromInline let store: StoreID
        @usableFromInline let time: Double

        @inlinable
        init(action: Action, store: consuming StoreID, time: Double) {
            self.action = action
            self.store = store
            self.time = time
        }
    }

    @usableFromInline var pending: [Entry] = []
    @usableFromInline var isDrainScheduled = false
    @usableFromInline var isClosed = false

    @usableFromInline
    init() {}

    /// Adds an action; returns whether the caller must schedule a drain (none is scheduled or running).
    @inlinable
    mutating func append(_ entry: consuming Entry) -> Bool {
        guard !isClosed else { return false }
        pending.append(entry)
        guard !isDrainScheduled else { return false }
        isDrainScheduled = true
        return true
    }

    /// Swaps the pending actions with `batch`, which the drain has emptied; returns `false`, and lets
    /// the next append schedule a drain again, when there are none.
    mutating func take(into batch: inout [Entry]) -> Bool {
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
