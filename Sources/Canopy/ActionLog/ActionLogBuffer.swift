/// The actions an ``ActionRecorder`` has recorded and not yet handed to its writer.
///
/// Generic and inlinable: the recorder's middleware is compiled in the app's module for the app's
/// action type, so appending an action moves it into typed raw memory, with no existential box, no
/// runtime metadata lookup and, but once per chunk, no allocation on the tree's queue.
///
/// The entries are kept in chunks of fixed size rather than one growing array: an append writes at a
/// cursor and moves it on, with no uniqueness or capacity check of an array, and nothing recorded is
/// ever copied again to make room (a tree that records faster than the writer writes would otherwise
/// copy the whole buffer each time it doubles).
@usableFromInline
// Safety: Sendable by hand: used only under the recorder's lock, as the note below details.
struct ActionLogBuffer<Action: Sendable>: @unchecked Sendable {
    // Safety: the buffer lives in the recorder's `SpinLockedValue` and is read and written only under
    // its lock; `cursor` and `end` point into the last of `chunks`, which the buffer holds, and the
    // entries they reach are `Sendable`. `take(into:)` hands whole chunks to the writer and forgets
    // them, so no chunk is written and read at once.
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

    /// Entries in raw memory of a fixed capacity; the first `count` are initialised once the chunk is
    /// handed to the writer, which lets go of it after writing them.
    // Safety: Sendable by hand: written under the recorder's lock, then only read by the writer (below).
    @usableFromInline
    final class Chunk: @unchecked Sendable {
        // Safety: a chunk is written only under the recorder's lock, by appends, while it is the
        // buffer's last chunk; `take(into:)` sets `count` under the same lock and hands the chunk to the
        // writer, which only reads it, on its own serial queue, then lets go of it. `base` is allocated
        // for `capacity` entries here and freed in `deinit`, which deinitialises the first `count`.
        let base: UnsafeMutablePointer<Entry>
        var count = 0

        init(capacity: Int) {
            base = .allocate(capacity: capacity)
        }

        deinit {
            base.deinitialize(count: count)
            base.deallocate()
        }

        /// How many entries a chunk holds: about 16 KB of them, at least 16.
        static var capacity: Int {
            max(16, (1 << 14) / MemoryLayout<Entry>.stride)
        }
    }

    /// The chunks recorded since the last `take(into:)`, in order; the last one is being filled, and
    /// its `count` is set when it is taken. The recorder drains the buffer before it ends, so no
    /// entry is left uncounted.
    private var chunks: [Chunk] = []
    // The next free entry of the last chunk, and the end of that chunk; both `nil` when there is none.
    // Safety: both point into `chunks.last`, which `chunks` keeps alive, and are reset when it is taken.
    @usableFromInline var cursor: UnsafeMutablePointer<Entry>?
    @usableFromInline var end: UnsafeMutablePointer<Entry>?
    @usableFromInline var isDrainScheduled = false
    @usableFromInline var isClosed = false

    @usableFromInline
    init() {}

    /// Adds an action; returns whether the caller must schedule a drain (none is scheduled or running).
    @inlinable @inline(__always)
    mutating func append(_ entry: consuming Entry) -> Bool {
        guard !isClosed else { return false }
        if cursor != end {
            // Safety: `cursor` is set (it differs from `end`) and points to a free entry of the last
            // chunk, before its end.
            let slot = cursor!
            slot.initialize(to: entry)
            cursor = slot + 1
        } else {
            appendToNewChunk(entry)
        }
        guard !isDrainScheduled else { return false }
        isDrainScheduled = true
        return true
    }

    /// `append`, when the last chunk is full or there is none: starts a chunk.
    @usableFromInline
    @inline(never)
    mutating func appendToNewChunk(_ entry: consuming Entry) {
        sealLastChunk()
        let capacity = Chunk.capacity
        let chunk = Chunk(capacity: capacity)
        chunks.append(chunk)
        // Safety: the chunk was just allocated for `capacity` entries; the first is initialised here.
        chunk.base.initialize(to: entry)
        cursor = chunk.base + 1
        end = chunk.base + capacity
    }

    /// Records in the last chunk how many of its entries are initialised.
    private mutating func sealLastChunk() {
        guard let last = chunks.last, let cursor else { return }
        // Safety: `cursor` points into `last` (between its first entry and its end), so the distance
        // is the number of entries initialised in it.
        last.count = cursor - last.base
    }

    /// Hands the pending actions to `batch`, which the drain has emptied; returns `false`, and lets the
    /// next append schedule a drain again, when there are none.
    mutating func take(into batch: inout [Chunk]) -> Bool {
        sealLastChunk()
        guard !chunks.isEmpty else {  // a chunk is made with its first entry
            isDrainScheduled = false
            return false
        }
        swap(&chunks, &batch)
        cursor = nil
        end = nil
        return true
    }

    /// Records nothing from now on.
    mutating func close() {
        isClosed = true
    }
}
