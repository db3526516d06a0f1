/// A store an ``ActionLog`` can replay actions into: its ``StoreID`` and a way to send it an action and
/// learn whether it was reduced.
///
/// The engine keeps no registry of nodes by ID, so the player is given the stores of the tree it
/// replays into. Make one target per store of the tree the log names (the root and each child, built
/// in the same order as when the log was recorded, so that their IDs match).
///
/// ```swift
/// let root = StateStore(Board(), reducer: Board.reduce)
/// let tasks = root.with(TaskList(), reducer: TaskList.reduce)
/// let targets = [ReplayTarget(root), ReplayTarget(tasks)]
/// ```
public struct ReplayTarget<Action: Sendable>: Sendable {
    /// The store's place in its tree; log entries for this ID go to this target.
    public let storeID: StoreID

    private let sendAction: @Sendable (Action, @escaping @Sendable (Bool) -> Void) -> Void

    /// A target for any store: `send` sends the action and calls its argument once, with whether the
    /// action was reduced (`false` when a middleware blocked it or threw).
    ///
    /// - Parameters:
    ///   - storeID: The ID the log names the store by.
    ///   - send: Sends an action and reports, once, whether it was reduced.
    public init(storeID: StoreID, send: @escaping @Sendable (Action, @escaping @Sendable (Bool) -> Void) -> Void) {
        self.storeID = storeID
        self.sendAction = send
    }

    /// A target for `store`.
    ///
    /// - Parameter store: A store of the tree to replay into.
    public init<State>(_ store: StateStore<State, Action>) {
        self.init(storeID: store.storeID) { action, reduced in
            store.dispatch(action) { outcome in reduced(outcome.state != nil) }
        }
    }

    /// A target for `store`.
    ///
    /// - Parameter store: A store of the tree to replay into.
    public init<State>(_ store: AnyStore<State, Action>) {
        self.init(storeID: store.storeID) { action, reduced in
            store.dispatch(action) { outcome in reduced(outcome.state != nil) }
        }
    }

    /// Sends `action` and returns once it was handled, with whether it was reduced.
    func send(_ action: Action) async -> Bool {
        await withCheckedContinuation { continuation in
            sendAction(action) { reduced in continuation.resume(returning: reduced) }
        }
    }
}
