import Dispatch

#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// Records every action of a store tree, with the store it was sent to and the time on the tree's
/// clock, as an action log (JSON Lines) that ``ActionLog`` replays into a freshly built tree.
///
/// Attach the recorder's ``middleware(recording:)`` to the root, **last**, so it sees each action as the root's
/// middleware lets it through to the reducers: an action blocked before it is not recorded, and a
/// transformed one is recorded as transformed. Middleware at the root sees the actions of every store of
/// the tree that takes the same action type.
///
/// Recording costs the tree's queue little: the middleware copies the action, its store and the time
/// into a buffer behind a lock and, when the recorder's own serial queue is idle, wakes it. That queue
/// encodes the buffered actions as JSON and writes them in one call per batch, batch after batch until
/// the buffer is empty; no file I/O happens on the tree's queue. The buffer is not bounded: a tree
/// that sends actions faster than they can be encoded makes it grow until the writer catches up.
///
/// ```swift
/// let recorder = try ActionRecorder<BoardAction>(file: logURL, appVersion: "2.1")
/// let board = StateStore(
///     Board(),
///     middlewares: [validate, recorder.middleware()],  // the recorder last
///     reducer: Board.reduce
/// )
/// let tasks = board.with(TaskList(), reducer: TaskList.reduce)  // its actions are recorded too
/// // … later, before quitting:
/// try recorder.close()
/// ```
///
/// The log starts with a header line naming the format version and `appVersion`, so that a log from
/// another version of the app is refused with a clear error instead of replaying wrongly. Write
/// failures are kept, not lost: ``close()`` and ``flush()`` throw the first one.
public final class ActionRecorder<Action: Encodable & Sendable>: Sendable {
    // A spin lock: the tree's queue holds it to append one entry, the recorder's queue to swap the
    // buffer's list of chunks with its emptied one.
    @usableFromInline let buffer = SpinLockedValue(ActionLogBuffer<Action>())
    private let queue = DispatchQueue(label: "canopy.action-recorder", qos: .utility)
    private let writer: ActionLogWriter<Action>
    private let failure = LockedValue<ActionLogError?>(nil)

    /// Creates a recorder that hands the log to `write`, a chunk of whole lines at a time.
    ///
    /// `write` is called on the recorder's serial queue, never on the tree's, one call at a time and in
    /// order: first the header line, then batches of entries. What it throws is kept and reported by
    /// ``flush()`` and ``close()``; later chunks are not offered to it, since the chunk it refused may
    /// have been written in part (a reader sees that part as the log's truncated last line).
    ///
    /// ```swift
    /// let chunks = LogChunks()  // an app's thread-safe collector
    /// let recorder = ActionRecorder<CounterAction>(appVersion: "test") { chunks.append($0) }
    /// ```
    ///
    /// - Parameters:
    ///   - appVersion: Written in the header; ``ActionLog`` can refuse a log from another version.
    ///   - write: Receives the log's bytes, in order.
    public init(appVersion: String, write: @escaping @Sendable (Data) throws -> Void) {
        writer = ActionLogWriter(name: "action log", write: write, close: {})
        start(appVersion: appVersion)
    }

    /// Creates a recorder that writes the log to the file at `file`, replacing what it held.
    ///
    /// ```swift
    /// let recorder = try ActionRecorder<BoardAction>(file: URL(filePath: "board.log"), appVersion: "2.1")
    /// ```
    ///
    /// - Parameters:
    ///   - file: Where to write; the file is created or emptied.
    ///   - appVersion: Written in the header; ``ActionLog`` can refuse a log from another version.
    /// - Throws: ``ActionLogError/io(path:reason:)`` when the file cannot be created.
    public init(file: URL, appVersion: String) throws(ActionLogError) {
        writer = try ActionLogWriter(file: file)
        start(appVersion: appVersion)
    }

    deinit {
        // Nothing else holds the recorder: a scheduled drain keeps it alive, so it has run.
        drainNow()
    }

    private func start(appVersion: String) {
        let header = ActionLogFormat.Header(canopyActionLog: ActionLogFormat.version, app: appVersion)
        let writer = self.writer
        let failure = self.failure
        queue.async {
            writer.write(header: header, failure: failure)
        }
    }

    /// The middleware that records each action it sees, then passes it on unchanged.
    ///
    /// Attach it to the root, after every other middleware of the root, so it records what reaches the
    /// reducers. Its name in diagnostics is `action recorder`.
    ///
    /// By default every action is recorded, those effects send included, and a replay runs into a tree
    /// without effects. To replay into a tree whose effects run again, record only the actions that do
    /// not come from effects: `include` returns `false` for the others, which pass on unrecorded.
    ///
    /// ```swift
    /// let store = StateStore(Counter(), middlewares: [recorder.middleware()], reducer: Counter.reduce)
    /// let userOnly = recorder.middleware(recording: { !$0.isEffectResult })  // effects re-run on replay
    /// ```
    ///
    /// - Parameter include: Says which actions to record; `nil` (the default) records them all.
    /// - Returns: A middleware for a tree whose actions are `Action`.
    @inlinable
    public func middleware<State>(recording include: (@Sendable (Action) -> Bool)? = nil) -> Middleware<State, Action> {
        // Inlinable, like what it calls on the tree's queue: compiled in the app's module for its action
        // type, so recording an action copies it into a typed buffer without boxing it or looking up
        // type metadata. A middleware that only observes: the chain calls it with the node's
        // environment, without a context, and the action goes on unchanged.
        guard let include else {
            return Middleware(
                name: "action recorder",
                observer: { [self] action, environment in
                    record(action, environment.recordingStamp())
                }
            )
        }
        return Middleware(
            name: "action recorder",
            observer: { [self] action, environment in
                if include(action) {
                    record(action, environment.recordingStamp())
                }
            }
        )
    }

    /// Adds one action to the buffer; wakes the writer when it is idle. Any thread.
    @inlinable
    func record(_ action: Action, _ stamp: consuming (store: StoreID, time: Double)) {
        // Made outside the lock and moved in, so that the store's path is not retained and released; the
        // lock is taken without a closure, which could only copy the entry.
        let entry = ActionLogBuffer.Entry(action: action, store: stamp.store, time: stamp.time)
        buffer.lock()
        // Safety: read and written only between `lock()` and `unlock()`, as `withLock` would; `append`
        // does not call out. Reached through the storage's address, as `withLock` does: an access to a
        // property of the lock's owner would be one to the owner, whose first bytes the lock's flag is,
        // and the thread sanitizer would report it against the next thread's taking of the lock.
        let wakesWriter = buffer.storage.pointee.append(consume entry)
        buffer.unlock()
        if wakesWriter {
            scheduleDrain()
        }
    }

    /// Makes the recorder's queue write what the buffer holds.
    @usableFromInline
    func scheduleDrain() {
        queue.async { self.drainNow() }
    }

    /// Encodes and writes what the buffer holds. On the recorder's queue, or in `deinit`.
    private func drainNow() {
        writer.drain(buffer, failure: failure)
    }

    /// Writes every action recorded so far, and waits until it is written.
    ///
    /// Actions are recorded when the tree handles them: to be sure an action you sent is in, await its
    /// `send` (or its dispatch's completion) first.
    ///
    /// Call it from any queue but the one `write` runs on.
    ///
    /// - Throws: The first write failure since the recorder was made.
    public func flush() throws(ActionLogError) {
        dispatchPrecondition(condition: .notOnQueue(queue))
        queue.sync { drainNow() }
        if let error = failure.withLock({ $0 }) { throw error }
    }

    /// Writes every action recorded so far and closes the log; the recorder records nothing after it.
    ///
    /// Actions the tree handles after `close` pass through the middleware unrecorded. Closing twice
    /// does nothing more.
    ///
    /// - Throws: The first write failure since the recorder was made.
    public func close() throws(ActionLogError) {
        dispatchPrecondition(condition: .notOnQueue(queue))
        buffer.withLock { $0.close() }
        queue.sync {
            drainNow()
            writer.close()
        }
        if let error = failure.withLock({ $0 }) { throw error }
    }
}
