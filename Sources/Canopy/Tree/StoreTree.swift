import Dispatch

/// The engine of one store tree: its serial queue, its clock, its inbox, and the one path every action
/// takes.
///
/// ```
/// dispatch(a), any thread ──▶ inbox (one per tree; FIFO per producer; no queue hop while a drain runs)
/// drain, on the queue:  for each entry, in arrival order
///     work item ──▶ run it            (subscribe, send's reply, a view's action, …)
///     action    ──▶ process(a, at: node)
///                     up:   node.reduceOwn(a), then its parent's, …, the root's   (reduceUp)
///                     down: from the root, refresh and notify the nodes on that path, and every
///                           attached subtree whose input changed                   (publishDown)
///                     then, if `a` is an AsyncAction, start it
/// ```
///
/// Every kind of work goes through here: dispatches to any node, effect results (their actions carry
/// the run, checked right before reducing), `send`, async action results and subscriptions.
final class StoreTree: @unchecked Sendable {
    // Safety: `path`, `stack` and `isProcessing` are scratch space of `process`, which runs only on
    // `queue` (the drain checks it in every build, `assertOnQueue()` in debug builds) and never
    // re-enters itself: reducers and observers cannot reach it synchronously, because every way to
    // dispatch or subscribe goes through the inbox. The `let`s never change.
    let queue: DispatchQueue
    let scheduler: any DelayScheduler
    let inbox: any TreeInbox
    /// The nodes the current action was reduced by, the receiving node first and the root last, when
    /// the root has listeners (otherwise nothing is published and the path is not recorded).
    @exclusivity(unchecked) private var path = NodePath()
    /// The nodes left to visit in the walk down.
    @exclusivity(unchecked) private var stack: [Visit] = []
    @exclusivity(unchecked) private var isProcessing = false
    /// Whether the root has listeners, that is whether anything in the tree does: kept by the root
    /// (``TreeNode/listenersChanged()``) so that `process` need not reach the root for each action.
    @exclusivity(unchecked) var isListenedTo = false

    /// How many batches one drain runs before it lets other work on the queue run.
    static var batchesPerTurn: Int { 64 }

    init(qos: DispatchQoS, scheduler: any DelayScheduler, inbox: any TreeInbox) {
        self.queue = DispatchQueue(label: "canopy.store", qos: qos)
        self.scheduler = scheduler
        self.inbox = inbox
    }

    // MARK: The drain

    /// On the queue: runs everything in the inbox, including what arrives meanwhile, in arrival order.
    ///
    /// Under a sustained stream the inbox never empties, so after ``batchesPerTurn`` batches the drain
    /// hands the queue back and schedules its continuation: timers scheduled on the tree's queue
    /// (debounce, `maxWait`, effect delays) run in between instead of starving.
    ///
    /// `root` receives the actions pushed without a receiver; the drain was scheduled by a node, which
    /// keeps it alive (``TreeNode/scheduleDrain()``).
    func drain<Action>(_ inbox: Inbox<Action>, root: ActionNode<Action>) {
        // Checked in every build, once per turn: everything the drain calls relies on it.
        dispatchPrecondition(condition: .onQueue(queue))
        var batch = inbox.takeSpare()
        var batches = 0
        while inbox.take(&batch) {
            inbox.run(&batch) { process($0, at: root) }
            batches += 1
            if batches == Self.batchesPerTurn {
                inbox.yield(&batch)
                root.scheduleDrain()
                return
            }
        }
    }

    // MARK: One action

    /// On the queue: reduces `action` from `node` up to the root, publishes the result down the tree,
    /// then starts `action` if it is an ``AsyncAction``.
    @inline(__always)
    func process<Action>(_ action: Action, at node: ActionNode<Action>) {
        #if DEBUG
        precondition(!isProcessing, "Internal inconsistency: an action was reduced while another one was")
        isProcessing = true
        defer { isProcessing = false }
        #endif
        if isListenedTo {
            reduceUp(action, from: node)
            publishDown()
            path.removeAll()
        } else if var next = node.reduceOwn(action) {
            // Nobody listens anywhere in the tree: reduce, record nothing, publish nothing.
            while let further = next.reduceOwn(action) {
                next = further
            }
        }
        if node.mayReceiveAsyncActions, let asyncAction = action as? any AsyncAction {
            node.execute(asyncAction)
        }
    }

    /// On the queue: runs the reducers from `node` up to the root, leaf first, recording the path.
    ///
    /// A node that translates actions (`map(actions:)`) continues the walk with the translated action
    /// by calling this again, so each translation on the path adds one stack frame; the tree's depth
    /// alone adds none.
    func reduceUp<Action>(_ action: Action, from node: ActionNode<Action>) {
        var node = node
        while true {
            path.append(node)
            guard let next = node.reduceOwn(action) else { return }
            node = next
        }
    }

    /// On the queue: walks down from the root after `reduceUp`.
    ///
    /// Nodes on the path are refreshed and notified (their observers see every action that passed
    /// through them, as in Puredux). Off the path, a subtree is visited only when its parent's state may
    /// have changed: a sibling whose inputs provably did not change costs nothing. Iterative, in
    /// depth-first order: a node's observers run before its children's, children in attach order.
    private func publishDown() {
        guard let root = path.last else { return }
        stack.append(Visit(node: root, parentChanged: false, pathIndex: path.count - 1))
        while let visit = stack.popLast() {
            let node = visit.node
            let onPath = visit.pathIndex >= 0
            let changed = node.refresh(parentChanged: visit.parentChanged, onPath: onPath)
            node.notifyObservers()
            if changed {
                let firstChild = stack.count
                let pathChildIndex = visit.pathIndex - 1
                node.forEachChild { child in
                    let index = pathChildIndex >= 0 && path.holds(child, at: pathChildIndex) ? pathChildIndex : -1
                    stack.append(Visit(node: child, parentChanged: true, pathIndex: index))
                }
                // Children were pushed in order; the walk pops them, so reverse them in place.
                var low = firstChild
                var high = stack.count - 1
                while low < high {
                    stack.swapAt(low, high)
                    low += 1
                    high -= 1
                }
            } else if visit.pathIndex > 0 {
                let pathChild = path[visit.pathIndex - 1]
                if pathChild.isAttached {
                    stack.append(Visit(node: pathChild, parentChanged: false, pathIndex: visit.pathIndex - 1))
                }
            }
        }
    }

    /// A node the walk down still has to visit.
    private struct Visit {
        let node: TreeNode
        /// Whether the parent's state may have changed.
        let parentChanged: Bool
        /// The node's index in `path`, or -1 when it is off the path.
        let pathIndex: Int
    }

    // MARK: Confinement

    /// Traps in debug builds when the caller is not running on the tree's queue.
    @inline(__always)
    func assertOnQueue() {
        #if DEBUG
        dispatchPrecondition(condition: .onQueue(queue))
        #endif
    }
}
