public import Synchronization

/// What every child of the same types shares: the code that uses the child's cell (``ChildCell``), its
/// local state and its first observer, under the cell's lock: running the reducer (``reduce``), making
/// the child's state of its parent's and its own (``make``), also writing it into the child's cache and
/// handing it to the observers (``compose``), or only handing it to them (``composeUncached``), handing
/// them the cached state (``notify``), and editing the observer (``editObservers``).
///
/// Made where `with(_:reducer:)` is inlined (``pairing()``), so that all of it is compiled for the
/// concrete types, and shared by every child of those types (``SharedPerType``): a child keeps one
/// reference to it rather than closures of its own (W4 counts the bytes of every child store). In the
/// node's own code, which is generic and runs unspecialised, the cell's type is one whose metadata the
/// runtime looks up by hashing on every use (several hundred instructions); here it is known.
///
/// The first child made for a set of types decides for all of them: a `with(_:reducer:)` inlined into
/// code that is generic over the state makes closures that are correct but slower, which the children
/// of the same types made later from specialised code then share.
@usableFromInline
final class ChildKind<ParentState: Sendable, Local: Sendable, State: Sendable, Action: Sendable>: Sendable {
    /// The child's cell: its local state and its first observer, under one lock.
    @usableFromInline
    typealias Cell = Mutex<ChildCell<Local, State>>

    /// Runs the reducer and says whether the local state changed, when `Local` is `Equatable` plain data.
    let changeCheck: ChangeCheck<Local, Action>?

    /// Runs `reducer` with `action` on the local state, then `afterReduce` on it when the child has
    /// after-reduce steps; returns whether the local state may have changed: `false` only when
    /// `changeCheck` is given (the child has children, whose walk a change decides; a leaf's visit is
    /// the same either way) and says the state is equal to what it was.
    @usableFromInline
    typealias Reduce =
        @Sendable (
            _ cell: borrowing Cell,
            _ action: Action,
            _ reducer: Reducer<Local, Action>,
            _ changeCheck: ChangeCheck<Local, Action>?,
            _ afterReduce: ((inout Local) -> Void)?
        ) -> Bool

    /// Makes the child's state of `parent`, its parent's current state, and the local state.
    @usableFromInline
    typealias Make = @Sendable (_ parent: borrowing ParentState, _ cell: borrowing Cell) -> State

    /// Makes the child's state of `parent`, its parent's current state, and the local state, and writes it
    /// into `cache`, the child's cached state; then, when `notifying`, calls the observers with it: those
    /// of `list` if the node has one, the one in the cell otherwise. Returns the slots of those that
    /// answered `.dead` (``NodeObservers``).
    @usableFromInline
    typealias Compose =
        @Sendable (
            _ parent: borrowing ParentState,
            _ cell: borrowing Cell,
            _ cache: inout State,
            _ notifying: Bool,
            _ list: ObserverStorage<State>?
        ) -> [Int]?

    /// For a child without a cache (a leaf): makes its state as ``Make`` does and calls the observers with
    /// it, as ``Compose`` does.
    @usableFromInline
    typealias ComposeUncached =
        @Sendable (
            _ parent: borrowing ParentState,
            _ cell: borrowing Cell,
            _ list: ObserverStorage<State>?
        ) -> [Int]?

    /// Calls the observers with `state`, the child's cached state: those of `list` if the node has one,
    /// the one in the cell otherwise; returns the slots of those that answered `.dead`.
    @usableFromInline
    typealias Notify =
        @Sendable (
            _ cell: borrowing Cell,
            _ state: borrowing State,
            _ list: ObserverStorage<State>?
        ) -> [Int]?

    /// Runs `edit` on the observer in the cell (adding, finding, removing or moving it into a list).
    @usableFromInline
    typealias EditObservers = @Sendable (_ cell: borrowing Cell, _ edit: (inout NodeObservers<State>) -> Void) -> Void

    let reduce: Reduce
    let make: Make
    let compose: Compose
    let composeUncached: ComposeUncached
    let notify: Notify
    let editObservers: EditObservers

    @usableFromInline
    init(
        changeCheck: ChangeCheck<Local, Action>?,
        reduce: @escaping Reduce,
        make: @escaping Make,
        compose: @escaping Compose,
        composeUncached: @escaping ComposeUncached,
        notify: @escaping Notify,
        editObservers: @escaping EditObservers
    ) {
        // Made only by `pairing()`, once per set of types: `SharedPerType` keeps the first one made for
        // good, so no other code may make one with other closures.
        self.changeCheck = changeCheck
        self.reduce = reduce
        self.make = make
        self.compose = compose
        self.composeUncached = composeUncached
        self.notify = notify
        self.editObservers = editObservers
    }
}

extension ChildKind where State == (ParentState, Local) {
    /// The kind shared by every child made with `with(_:reducer:)` of these types, whose state pairs the
    /// parent's state with the local one: made here, where this call is inlined, if none was made before.
    @inlinable
    static func pairing() -> ChildKind {
        let kind = SharedPerType.shared(ChildKind.self) {
            ChildKind(
                changeCheck: ChangeCheck<Local, Action>.make(),
                reduce: { cell, action, reducer, changeCheck, afterReduce in
                    cell.withLock { cell in
                        let changed: Bool
                        if let changeCheck {
                            changed = changeCheck.reduce(&cell.local, action, reducer)
                        } else {
                            reducer(&cell.local, action)
                            changed = true
                        }
                        afterReduce?(&cell.local)
                        return changed
                    }
                },
                make: { parent, cell in
                    cell.withLock { (copy parent, $0.local) }
                },
                compose: { parent, cell, cache, notifying, list in
                    // A list of observers is in the node's box, not in the cell: it is called after the
                    // lock, which keeps the lock's code small enough to be compiled into its caller.
                    // The list is used through optional chaining, not bound: a binding copied it.
                    let notifiesCell = notifying && list == nil
                    let dead = cell.withLock { cell in
                        cache = (copy parent, cell.local)
                        return notifiesCell ? cell.observers.notify(cache) : nil
                    }
                    guard notifying, list != nil else { return dead }
                    return list?.notifyIfAnyLive(cache)
                },
                composeUncached: { parent, cell, list in
                    // The observers get the pair as it is made.
                    if list != nil {
                        return list?.notifyIfAnyLive(cell.withLock { (copy parent, $0.local) })
                    }
                    return cell.withLock { cell in cell.observers.notify((copy parent, cell.local)) }
                },
                notify: { cell, state, list in
                    if list != nil {
                        return list?.notifyIfAnyLive(state)
                    }
                    return cell.withLock { $0.observers.notify(state) }
                },
                editObservers: { cell, edit in
                    cell.withLock { edit(&$0.observers) }
                }
            )
        }
        guard let kind else {
            preconditionFailure("Internal inconsistency: no kind kept for \(ChildKind.self)")
        }
        return kind
    }
}

/// What a child keeps under its lock (``ChildKind/Cell``): its local state, which its reducer mutates in
/// place, and its first observer (``NodeObservers``), which the walk down calls in place.
///
/// Both are used only on the tree's queue, one entry at a time, so the lock is never contended; it makes
/// every access exclusive by construction, for about 22 instructions a lock and an unlock, where the
/// runtime's exclusivity check of a class `var` would cost about 90. The reducer and the observers run
/// while it is held: they cannot reach the cell again synchronously (every way back into the tree goes
/// through the inbox), and a path that did would stop at the lock's recursion check instead of racing.
@usableFromInline
struct ChildCell<Local: Sendable, State>: Sendable {
    @usableFromInline
    var local: Local
    @usableFromInline
    var observers = NodeObservers<State>()

    @usableFromInline
    init(local: Local) {
        self.local = local
    }
}
