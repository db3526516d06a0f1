/// A tree node that takes actions of type `Action`: the part of a node the engine's walk up the tree
/// (``StoreTree/reduceUp(_:from:path:)``) needs.
class ActionNode<Action: Sendable>: TreeNode {
    /// What is decided about the node once, in `init`: one byte, so that ``lastChanged`` packs beside
    /// it and `TreeNode`'s flags (8 bytes less for every child store that W4 counts).
    private final let traits: ActionNodeTraits
    /// Whether the last action this node's own reducer ran may have changed its own state (the root's,
    /// a child's local state); `false` only when a change check said it did not. The nodes that reduce
    /// (the root and children) set it; a node kept it in its own class, where it took 8 bytes with
    /// its padding.
    // Written by `reduceOwn`, read by the walk down (`refresh`, `visit`).
    final var lastChanged = true

    /// The root's inbox, when actions for this node wait there as plain values: the root takes this
    /// node's `Action` too, and no `map(actions:)` above translates them into another type. Otherwise
    /// (`nil`) they travel as work items. The tree's own reference to the inbox is untyped; this one,
    /// typed once when the node is made, is what a push goes through.
    final let sharedInbox: Inbox<Action>?

    /// This node's middleware, once some is attached (``StateNode/use(_:resolvers:)``). In the node, not
    /// in a box, so the engine's middleware stage reaches it with one load and no call (W4 counts its
    /// 8 bytes in every child store; reached through the box, a call of a subclass's accessor cost W1
    /// with a middleware about 8 instructions per action).
    // Replaced only by `use`, in a work item, never during an action;
    // the middleware stage moves it out and back (`withMiddleware`).
    final var middleware: NodeMiddleware<Action>?

    init(tree: StoreTree, parent: TreeNode?, sharedInbox: Inbox<Action>?, translatesActions: Bool = false) {
        var traits: ActionNodeTraits = []
        if ActionKind.mayBeAsyncAction(Action.self) {
            traits.insert(.mayReceiveAsyncActions)
        }
        if translatesActions {
            traits.insert(.translatesActions)
        }
        self.traits = traits
        self.sharedInbox = sharedInbox
        super.init(tree: tree, parent: parent)
    }

    /// Whether the walk up goes on from this node with a translated action
    /// (``continueTranslated(_:path:)``): a `map(actions:)` view whose actions are not its parent's.
    final var translatesActions: Bool {
        @inline(__always) get { traits.contains(.translatesActions) }
    }

    /// Whether a dispatched action of this node's type could be an ``AsyncAction`` (decided once).
    final var mayReceiveAsyncActions: Bool {
        @inline(__always) get { traits.contains(.mayReceiveAsyncActions) }
    }

    /// On the queue: runs this node's own reducer and returns the next node up that reduces the same
    /// action, or `nil` when the walk with this action type is over (at the root, or at a view that
    /// translates actions, which goes on in ``continueTranslated(_:path:)``).
    ///
    /// The next node is returned strongly, so the walk holds each node it reaches: a retain and a release
    /// per level above the first.
    func reduceOwn(_ action: Action) -> ActionNode<Action>? {
        preconditionFailure("Internal inconsistency: \(type(of: self)) does not reduce")
    }

    /// On the queue, when ``reduceOwn(_:)`` returned `nil`: a view that translates actions goes on up the
    /// tree with the translated action, recording its nodes in `path`
    /// (``StoreTree/reduceUp(_:from:path:)``). Nothing to do anywhere else: the walk is over.
    func continueTranslated<Path: PathRecorder>(_ action: Action, path: inout Path) {}

    /// On the queue, after the reducers: starts `action` if it is an ``AsyncAction``.
    ///
    /// A call of its own: the cast needs room for a copy of the action, which, inlined into the engine's
    /// loop, every action would pay for (the stack space of a value whose size is known only at run time
    /// is set up on entry).
    @inline(never)
    final func startIfAsync(_ action: Action) {
        if let asyncAction = action as? any AsyncAction {
            execute(asyncAction)
        }
    }

    /// On the queue: runs `asyncAction` on its queue; each result goes back to this node without
    /// retaining it.
    func execute(_ asyncAction: any AsyncAction) {
        preconditionFailure("Internal inconsistency: \(type(of: self)) does not run async actions")
    }

    /// On the queue, during the middleware stage: runs `body` with this node's middleware, which the
    /// caller knows is attached (``TreeNode/hasMiddleware``).
    ///
    /// The middleware is moved out of the node for the call and back after it, so `body` owns it and
    /// borrows what it holds: read as a copy, it would be retained and released around the chain's call
    /// (about 40 instructions per action), since the compiler cannot tell that the chain leaves the
    /// node's field alone. While it is out, the field is empty; nothing reads it then, because the engine
    /// is not entered again during an action (every way back into a store goes through the inbox; were
    /// it entered, the empty field would stop it here), and only `use(_:resolvers:)`, in a work item,
    /// replaces it. Had it been replaced meanwhile, the newer middleware would stay.
    @inline(__always)
    final func withMiddleware<Result>(_ body: (NodeMiddleware<Action>) -> Result) -> Result {
        guard let middleware else {
            // `use` sets the middleware before the flag: an empty field means its chain is running.
            preconditionFailure("Internal inconsistency: a middleware chain was run from inside itself")
        }
        self.middleware = nil
        let result = body(middleware)
        // Tested first: assigning over the empty field would release the `nil` in it, a call per action.
        if self.middleware == nil {
            self.middleware = middleware
        }
        return result
    }

    /// Queues `action` for this node, from any thread, with `receiver` as the inbox entry's receiver:
    /// a store's handle of it, or the ``AcceptedAction`` a weak route made for it. The entry
    /// keeps the receiver, and through it the node, until the action is handled. Dropped at its turn if
    /// `run` is given and no longer current; `outcome` is then called, on the queue, with what became of
    /// the action.
    ///
    /// Every way to send an action to a node but the root's plain dispatch (``dispatchToRoot(_:)``)
    /// comes here. It reads only the node's `let`s and link, so other threads call it through the node's
    /// ``QueueBound``.
    final func push(
        _ action: Action,
        through receiver: any InboxReceiver,
        guardedBy run: EffectRun? = nil,
        entry: EntryContext = EntryContext(),
        outcome: (@Sendable (ProcessOutcome) -> Void)? = nil
    ) {
        if tree.detectsCycles {
            pushFollowingCauses(action, through: receiver, guardedBy: run, entry: entry, outcome: outcome)
        } else {
            enqueue(action, through: receiver, guardedBy: run, entry: entry, outcome: outcome)
        }
    }

    /// From any thread, at the root: queues `action`, which a store of the root dispatches, as a plain
    /// value, with no receiver: the drain, which the root's inbox leads to, holds the root. With cycle
    /// detection on, the action takes the causes of what sends it, and waits with a receiver that holds
    /// the root as a weak route's does, counting no holder (``AcceptedAction``).
    @inline(__always)
    final func dispatchToRoot(_ action: Action) {
        if tree.detectsCycles, let causes = tree.causesOfDispatchNow {
            dispatchToRoot(action, causes: causes)
            return
        }
        if sharedInbox!.push(action) {
            tree.scheduleDrain()
        }
    }

    /// `dispatchToRoot` with cycle detection on, out of line.
    @inline(never)
    private final func dispatchToRoot(_ action: Action, causes: [String]) {
        guard let receiver = AcceptedAction.receiver(for: QueueBound<ActionNode<Action>>(self)) else {
            preconditionFailure("Internal inconsistency: the root refused an action")
        }
        push(action, through: receiver, entry: EntryContext(causes: causes))
    }

    /// `push` in a tree that detects cycles: the action takes the causes of what sends it. Out of line, so
    /// that the usual push, with cycle detection off, passes its context on untouched (choosing the
    /// context inline cost a tree-width action about 25 instructions).
    @inline(never)
    private final func pushFollowingCauses(
        _ action: Action,
        through receiver: any InboxReceiver,
        guardedBy run: EffectRun?,
        entry: EntryContext,
        outcome: (@Sendable (ProcessOutcome) -> Void)?
    ) {
        let entry = entry.followingCauses(of: run, in: tree)
        enqueue(action, through: receiver, guardedBy: run, entry: entry, outcome: outcome)
    }

    /// `push`, with the context settled.
    @inline(__always)
    private final func enqueue(
        _ action: Action,
        through receiver: any InboxReceiver,
        guardedBy run: EffectRun?,
        entry: EntryContext,
        outcome: (@Sendable (ProcessOutcome) -> Void)?
    ) {
        if sharedInbox != nil {
            // Read with `!` where it is used, the `let` is borrowed, not retained around the push.
            let mustDrain = sharedInbox!.push(
                action,
                for: receiver,
                guardedBy: run,
                entry: entry,
                completion: outcome
            )
            if mustDrain {
                tree.scheduleDrain()
            }
            return
        }
        // Under a `map(actions:)`: a work item, which holds the receiver (and through it the node) as an
        // inbox entry would.
        let node = QueueBound(self)
        node.enqueueWork {
            withExtendedLifetime(receiver) {
                guard run?.isCurrent ?? true else {
                    outcome?(.blocked)
                    return
                }
                // Processed first: `outcome?(…)` would skip evaluating its argument when there is no
                // outcome.
                let processed = node.withNode { $0.tree.process(copyOf: action, at: $0, entry: entry) }
                outcome?(processed)
            }
        }
    }

    /// The parent when it takes the same actions unchanged (a child's parent; a `map(state:)` view's),
    /// for the middleware stage; `nil` at the root or above a `map(actions:)` translation.
    func untranslatedParent() -> ActionNode<Action>? {
        nil
    }

    /// In the drain: processes the action in place, as an `Action` of this node's: the inbox hands a
    /// receiver only the actions pushed for it.
    final func handle(_ action: consuming InboxAction, entry: EntryContext) -> ProcessOutcome {
        action.handle(as: Action.self) { tree.process(&$0, at: self, entry: entry) }
    }
}

/// What an ``ActionNode`` decides about itself once, in one byte. Outside the generic class, so that its
/// operations need no type metadata.
private struct ActionNodeTraits: OptionSet {
    let rawValue: UInt8

    static let mayReceiveAsyncActions = ActionNodeTraits(rawValue: 1 << 0)
    static let translatesActions = ActionNodeTraits(rawValue: 1 << 1)
}
