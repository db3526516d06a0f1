/// The actions an ``ActionRecorder`` has recorded and not yet handed to its writer.
///
/// Generic and inlinable: the recorder's middleware is compiled in the app's module for the app's
/// action type, so appending an action moves it into a typed array, with no existential box, no
/// runtime metadata lookup and, but once per chunk, no allocation on the tree's queue.
///
/// The entries are kept in chunks of fixed capacity rather than one growing array: a chunk's capacity
/// is reserved when it starts and an append never exceeds it, so nothing recorded is ever copied again
/// to make room (a tree that records faster than the writer writes would otherwise copy the whole
/// buffer each time it doubles). A full chunk joins the list handed to the writer whole.
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

    /// Whether a drain is scheduled or running, and whether the recorder has closed.
    @usableFromInline
    enum Phase: UInt8, Sendable {
        /// A drain is scheduled or running: appends join the batch it will take. First, so that the
        /// common case is the test against zero.
        case scheduled
        /// No drain is scheduled: the next append schedules one.
        case idle
        /// The recorder is closed: appends record nothing.
        case closed
    }

    /// The chunks filled since the last `take(into:refill:)`, in order.
    private var full: [[Entry]] = []
    /// The chunk being filled, after those of `full`: it has room for ``chunkCapacity`` entries, and
    /// leaves for `full` when it holds that many.
    @usableFromInline var filling: [Entry] = []
    @usableFromInline var phase = Phase.idle

    @usableFromInline
    init() {
        filling.reserveCapacity(Self.chunkCapacity)
    }

    /// How many entries a chunk holds: about 16 KB of them, at least 16.
    @usableFromInline
    static var chunkCapacity: Int {
        max(16, (1 << 14) / MemoryLayout<Entry>.stride)
    }

    /// Adds an action; returns whether the caller must schedule a drain (none is scheduled or running).
    @inlinable @inline(__always)
    mutating func append(_ entry: consuming Entry) -> Bool {
        switch phase {
        case .scheduled:
            add(entry)
            return false
        case .idle:
            add(entry)
            phase = .scheduled
            return true
        case .closed:
            return false
        }
    }

    /// Adds `entry` to the chunk being filled, within its reserved room: the array never grows.
    @inlinable @inline(__always)
    mutating func add(_ entry: consuming Entry) {
        if filling.count == Self.chunkCapacity {
            startChunk()
        }
        filling.append(entry)
    }

    /// `add`, when the chunk being filled is full: hands it to `full` and starts another.
    @usableFromInline
    @inline(never)
    mutating func startChunk() {
        var chunk: [Entry] = []
        chunk.reserveCapacity(Self.chunkCapacity)
        swap(&chunk, &filling)
        full.append(chunk)
    }

    /// Hands the pending actions to `batch`, which the drain has emptied, and fills from `spare` on,
    /// an empty array with room for ``chunkCapacity`` entries (the writer makes or recycles it outside
    /// the lock, so the tree's queue seldom allocates); returns `false`, and lets the next append
    /// schedule a drain again, when there are none.
    mutating func take(into batch: inout [[Entry]], refill spare: inout [Entry]) -> Bool {
        precondition(
            spare.isEmpty && spare.capacity >= Self.chunkCapacity,
            "the recorder's writer must hand over an empty chunk with room for \(Self.chunkCapacity) entries"
        )
        if !filling.isEmpty {
            swap(&filling, &spare)
            full.append(spare)
            spare = []
        }
        guard !full.isEmpty else {
            if phase == .scheduled {
                phase = .idle
            }
            return false
        }
        swap(&full, &batch)
        return true
    }

    /// Records nothing from now on.
    mutating func close() {
        phase = .closed
    }
}
