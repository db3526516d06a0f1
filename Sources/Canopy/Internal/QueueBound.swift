import Dispatch

/// Proof that the code holding it runs on a tree's queue, inside the drain's turn: the drain makes one
/// after checking the queue, once per turn, and lends it to what the turn calls (``InboxReceiver``).
/// What borrows it may use the nodes its ``QueueBound`` references reach without checking the queue
/// again.
///
/// It cannot be copied, nor sent to another thread (its `Sendable` conformance is unavailable), and only
/// ``checked(on:)`` makes one, so holding one means the check was made on this thread, in this turn.
struct DrainTurn: ~Copyable {
    private init() {}

    /// Checks, in every build, that the caller runs on `queue`, and returns the proof of it.
    static func checked(on queue: DispatchQueue) -> DrainTurn {
        dispatchPrecondition(condition: .onQueue(queue))
        return DrainTurn()
    }
}

@available(*, unavailable)
extension DrainTurn: Sendable {}

/// A tree node held by something other threads use: a store's handle, an inbox entry, a work item, a
/// token. Nodes are not `Sendable`: their fields are the tree queue's alone. This is the one way a node
/// crosses threads, and it gives the node back only on the queue: checked in every build
/// (``onQueue``), or, in the drain's turn, against the proof the drain made after its own check
/// (``inDrain(_:passing:_:)``).
///
/// Other threads reach what a node shares through it: its link (``NodeLink``, `Sendable` on its own
/// terms), and the few members listed in the extension below, which read only the node's `let`s and its
/// link.
// Off the queue, only the node's `let`s are read (`link`, `tree`, `depth`, the parent chain for `storeID`,
// the shared inbox), which never change after `init`; and two members hand out the reference itself, to
// be held, not used: `parentForNewNode` (a node being made keeps its parent) and `object` (for identity
// and weak references).
// Safety: Sendable by hand: the node is handed out for use only on its tree's queue, checked (above).
struct QueueBound<Node: TreeNode>: @unchecked Sendable {
    private let node: Node

    /// Binds `node`, which the caller has just made or uses on the queue, and gives up using it
    /// elsewhere.
    @inline(__always)
    init(_ node: Node) {
        self.node = node
    }

    /// The node, on its tree's queue: checked in every build. During the drain (work items, observers,
    /// middleware), the check is the drain's thread compared with this one; elsewhere (a block scheduled
    /// on the queue), the queue itself.
    @inline(__always)
    var onQueue: Node {
        withNode { $0 }
    }

    /// Runs `body` with the node, on its tree's queue, checked as ``onQueue`` is. The node is lent to
    /// `body`: no reference is counted for the call, where ``onQueue`` returns one.
    @inline(__always)
    func withNode<Result>(_ body: (Node) -> Result) -> Result {
        let tree = node.tree
        if !tree.drainingThread.isCurrent {
            dispatchPrecondition(condition: .onQueue(tree.queue))
        }
        return body(node)
    }

    /// Runs `body` with the node, in the drain's turn, which checked the queue once for all it runs, and
    /// with `value`, which `body` consumes (an inbox entry's action). The node is lent to `body`: no
    /// reference is counted for the call.
    @inline(__always)
    func inDrain<Value: ~Copyable, Result>(
        _ turn: borrowing DrainTurn,
        passing value: consuming Value,
        _ body: (Node, consuming Value) -> Result
    ) -> Result {
        node.tree.assertOnQueue()
        return body(node, value)
    }

    /// Runs `body` on the queue with the node and the proof of the drain's turn: the check the drain
    /// makes once per turn (``StoreTree/scheduleDrain()``).
    @inline(__always)
    func enterDrain(_ body: (Node, borrowing DrainTurn) -> Void) {
        let turn = DrainTurn.checked(on: node.tree.queue)
        body(node, turn)
    }

    // MARK: From any thread

    /// The node's link: what keeps it in the tree, and the way onto the queue.
    @inline(__always)
    var link: NodeLink {
        node.link
    }

    /// Runs `work` on the queue after everything pushed before it (``NodeLink/enqueueWork(holding:_:)``),
    /// holding the node for the call.
    @inline(__always)
    func enqueueWork(_ work: @escaping @Sendable () -> Void) {
        node.link.enqueueWork(holding: node, work)
    }

    /// Has the queue remove the observer of `gate` (``NodeLink/enqueueRemoval(of:holding:)``), holding
    /// the node for the call.
    @inline(__always)
    func enqueueRemoval(of gate: CallGate) {
        node.link.enqueueRemoval(of: gate, holding: node)
    }

    /// The node's tree.
    @inline(__always)
    var tree: StoreTree {
        node.tree
    }

    /// The node's place in its tree.
    @inline(__always)
    var storeID: StoreID {
        node.storeID
    }

    /// The node itself, for a node being made below it to hold as its parent: the new node keeps it and
    /// reaches it only on the queue, apart from its `let`s and its link, which `init` reads.
    @inline(__always)
    var parentForNewNode: Node {
        node
    }

    /// The node as an object, for its identity and weak references only.
    @inline(__always)
    var object: AnyObject {
        node
    }
}

extension QueueBound {
    /// The node's number of ancestors: 0 at the root.
    @inline(__always)
    var depth: Int {
        node.depth
    }

    /// Queues `action` for the node (``ActionNode/push(_:through:guardedBy:entry:outcome:)``), which
    /// reads only the node's `let`s (its tree, its shared inbox) and link, and holds the node in a
    /// ``QueueBound`` when the action travels as a work item.
    @inline(__always)
    func push<Action>(
        _ action: Action,
        through receiver: any InboxReceiver,
        guardedBy run: EffectRun? = nil,
        entry: EntryContext = EntryContext(),
        outcome: (@Sendable (ProcessOutcome) -> Void)? = nil
    ) where Node: ActionNode<Action> {
        node.push(action, through: receiver, guardedBy: run, entry: entry, outcome: outcome)
    }

    /// Queues `action` for the root (``ActionNode/dispatchToRoot(_:)``), which reads only the node's
    /// `let`s.
    @inline(__always)
    func dispatchToRoot<Action>(_ action: Action) where Node: ActionNode<Action> {
        node.dispatchToRoot(action)
    }

    /// Where the value at `keyPath` lies in the node's own state (``StateNode/ownStateOffset(of:)``),
    /// which depends on the node's types only.
    @inline(__always)
    func ownStateOffset<State, Action, Value>(
        of keyPath: WritableKeyPath<State, Value>
    ) -> Int? where Node == StateNode<State, Action> {
        node.ownStateOffset(of: keyPath)
    }

    /// The same node, seen as an ``ActionNode``.
    @inline(__always)
    func asActionNode<Action>() -> QueueBound<ActionNode<Action>> where Node: ActionNode<Action> {
        QueueBound<ActionNode<Action>>(node)
    }
}
