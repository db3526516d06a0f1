import Dispatch

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

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
///
/// Everything the tree keeps is a `let` of a `Sendable` type, which the compiler checks; what the queue
/// changes as it works is in one object of its own, ``queueState``, which only the queue touches.
final class StoreTree: Sendable {
    let queue: DispatchQueue
    let scheduler: any DelayScheduler
    let inbox: any TreeInbox
    /// Work started by id (`MiddlewareContext.run(id:cancelInFlight:operation:)`), cancelled with the
    /// tree.
    let tasks: TaskRegistry
    /// The thread running the drain, while it runs: what lets a node that is let go of during the drain
    /// leave the tree right after the current entry (``dropAfterCurrentEntry(_:)``).
    let drainingThread = CallingThread()
    /// The thread calling observers, during a walk down or a new observer's first call: what lets a
    /// subscription's gate tell a cancel from inside its handler without noting its caller each call.
    let callingThread = CallingThread()
    /// The one observer of the tree's runtime events, if any.
    let diagnostics: (any StoreDiagnostics)?
    /// The gates of cancelled subscriptions whose observers wait to be removed, in one batch.
    let cancelledGates = CancelledGates()
    /// What the tree's queue changes as it works: the engine's flags, the walks' scratch space, the nodes
    /// waiting to leave the tree (``TreeQueueState``).
    let queueState: TreeQueueState
    /// Whether the tree has diagnostics or cycle detection (then `process` runs the supervised path).
    /// Decided once: testing the optional existential `diagnostics` copies it, for each action.
    private let isWatched: Bool
    /// Whether `diagnostics` is set, for the same reason.
    private let hasDiagnostics: Bool
    /// Whether cycle detection is on, for the same reason; read on every dispatch from a node, so that
    /// following causes costs nothing more when cycle detection is off.
    let detectsCycles: Bool

    /// How many batches one drain runs before it lets other work on the queue run.
    static var batchesPerTurn: Int { 64 }

    init(
        qos: DispatchQoS,
        scheduler: any DelayScheduler,
        inbox: any TreeInbox,
        diagnostics: (any StoreDiagnostics)? = nil,
        cycleDetection: CycleDetection = .off
    ) {
        let queue = DispatchQueue(label: "canopy.store", qos: qos)
        self.queue = queue
        self.scheduler = scheduler
        self.inbox = inbox
        self.tasks = TaskRegistry(queue: queue, scheduler: scheduler, diagnostics: diagnostics)
        self.diagnostics = diagnostics
        self.queueState = TreeQueueState(cycleDetector: cycleDetection.isEnabled ? CycleDetector(cycleDetection) : nil)
        self.hasDiagnostics = diagnostics != nil
        self.detectsCycles = cycleDetection.isEnabled
        self.isWatched = diagnostics != nil || cycleDetection.isEnabled
    }

    /// The limits the tree was made with. Read it only before the first action, or on the queue.
    var cycleDetection: CycleDetection { queueState.cycleDetector?.configuration ?? .off }

    /// In the root's `init`, before the tree is shared: records the root.
    func setRoot(_ root: TreeNode) {
        precondition(queueState.rootReference == nil, "Internal inconsistency: a tree was given a second root")
        queueState.rootReference = root
    }

    /// On the queue: a node's middleware was attached or rebuilt; `onlyObserves` says whether all of it
    /// only observes (``NodeMiddleware/onlyObserves``).
    func middlewareAttached(onlyObserves: Bool) {
        assertOnQueue()
        queueState.hasMiddleware = true
        if !onlyObserves {
            queueState.someMiddlewareActs = true
        }
    }

    /// The root node. Asked only by what holds a node of the tree, and so the root.
    var root: TreeNode {
        queueState.rootReference!
    }

    deinit {
        tasks.cancelAll()
        for attachment in queueState.attachments.values {
            attachment.treeWillEnd()
        }
    }

    /// On the queue: the tree's attachment of type `A`, if it has one.
    func attachment<A: TreeAttachment>(ifPresent _: A.Type) -> A? {
        assertOnQueue()
        return queueState.attachments[ObjectIdentifier(A.self)] as? A
    }

    /// On the queue: the tree's attachment of type `A`, made by `make` the first time.
    func attachment<A: TreeAttachment>(_ make: () -> A) -> A {
        if let existing = attachment(ifPresent: A.self) {
            return existing
        }
        let made = make()
        queueState.attachments[ObjectIdentifier(A.self)] = made
        return made
    }

    // MARK: The drain

    /// On the queue: runs everything in the inbox, including what arrives meanwhile, in arrival order.
    ///
    /// Under a sustained stream the inbox never empties, so after ``batchesPerTurn`` batches the drain
    /// hands the queue back and schedules its continuation: timers scheduled on the tree's queue
    /// (debounce, `maxWait`, effect delays) run in between instead of starving.
    ///
    /// `root` receives the actions pushed without a receiver; the block that ``scheduleDrain()`` scheduled
    /// keeps it alive, and made `turn` once it checked the queue.
    func drain<Action>(_ inbox: Inbox<Action>, root: ActionNode<Action>, in turn: borrowing DrainTurn) {
        let outer = drainingThread.enter()
        defer {
            // Whatever was let go of after the last entry (the buffers' last references) leaves now.
            settleDrops()
            drainingThread.leave(restoring: outer)
        }
        var batch = inbox.takeSpare()
        var batches = 0
        while inbox.take(&batch) {
            inbox.run(&batch, in: turn, afterEach: settleDrops) {
                process(&$0, at: root)
                settleDrops()
            }
            batches += 1
            if batches == Self.batchesPerTurn {
                inbox.yield(&batch)
                scheduleDrain()
                return
            }
        }
    }

    /// Schedules a drain of the inbox; the caller has just claimed it (an inbox push returned `true`), and
    /// holds a node of the tree, and so the root, for the call. The scheduled block holds the root, so
    /// the drain can run whatever happens meanwhile.
    ///
    /// Out of line: the dispatch that claims the drain calls it, and inlined there it cost every action
    /// an instruction, claimed or not.
    @inline(never)
    func scheduleDrain() {
        let root = QueueBound(self.root)
        // The queue is checked once per turn, in every build, here: everything the drain calls relies on
        // it.
        queue.async { root.enterDrain { root, turn in root.drainInbox(in: turn) } }
    }

    /// On the queue, during the drain: `node`, which nothing keeps any more, leaves the tree once the
    /// current inbox entry is done. Held until then.
    func dropAfterCurrentEntry(_ node: TreeNode) {
        // Moved out and back, so that the append, which may grow the array, runs outside any access to
        // the field.
        var drops = Self.take(&queueState.pendingDrops)
        drops.append(node)
        swap(&drops, &queueState.pendingDrops)
    }

    /// On the queue, between two inbox entries: takes out of the tree the nodes let go of during the
    /// entry, and lets go of them. Freeing one may let go of its parent, which joins the list.
    @inline(__always)
    func settleDrops() {
        while !queueState.pendingDrops.isEmpty {
            // Nodes let go of meanwhile join the field again, for the next round.
            var drops = Self.take(&queueState.pendingDrops)
            while let node = drops.popLast() {
                node.dropFromTree()
            }
        }
    }

    // MARK: One action

    /// On the queue: takes `action`, sent to `node`, through the middleware stage, reduces it from `node`
    /// up to the root, publishes the result down the tree, then starts `action` if it is an
    /// ``AsyncAction``.
    ///
    /// Without middleware, diagnostics or cycle detection (the usual production tree), only the last
    /// part runs.
    ///
    /// `action` is where its sender left it (usually its slot in the inbox's batch), so the middleware
    /// stage replaces it in place, with no copy; the caller destroys it afterwards.
    @discardableResult
    @inline(__always)
    func process<Action>(
        _ action: inout Action,
        at node: ActionNode<Action>,
        entry: EntryContext = EntryContext()
    ) -> ProcessOutcome {
        if queueState.hasMiddleware || isWatched {
            if isWatched {
                return processSupervised(&action, at: node, entry: entry)
            }
            // In a tree whose middleware all only observe (an action recorder), the taps run here, with
            // none of the stage's bookkeeping. Otherwise the stage runs here too, in the drain: with the
            // action in its slot and the async action's cast out of line, it needs no stack of its own,
            // and a call of its own cost about 35 instructions an action.
            if queueState.someMiddlewareActs || !observeOnly(action, at: node, entry: entry),
                let stopped = middlewareStage(&action, at: node, entry: entry)
            {
                return stopped
            }
        }
        reduceAndPublish(action, at: node)
        return .reduced
    }

    /// On the queue: `process` for an action the caller has only borrowed (a handle's `receive`, a work
    /// item's capture): a copy of it is what the middleware stage may replace.
    @discardableResult
    func process<Action>(
        copyOf action: Action,
        at node: ActionNode<Action>,
        entry: EntryContext = EntryContext()
    ) -> ProcessOutcome {
        var action = action
        return process(&action, at: node, entry: entry)
    }

    /// On the queue, in a tree whose middleware all only observe, without diagnostics or cycle
    /// detection: runs the taps of the one chain `action` meets (its node's or an ancestor's), from its
    /// first middleware, and returns `true` (the action goes on to the reducers unchanged); returns
    /// `false`, having done nothing, when the action meets more chains or resumes within one (the
    /// general stage runs).
    ///
    /// The taps borrow the action the inbox lent: no copy of it, none of the chain's bookkeeping.
    /// Written out in `process` (in the drain) for an action to the root: a call of its own cost the
    /// recorder about 30 per action, and W1, which skips it, about 1.
    @inline(__always)
    private func observeOnly<Action>(
        _ action: Action,
        at node: ActionNode<Action>,
        entry: EntryContext
    ) -> Bool {
        let depth = node.depth
        guard entry.middlewareStart == 0, depth >= entry.resumeDepth else {
            return false
        }
        guard depth == 0 else {
            return observeFromAbove(action, at: node, entry: entry)
        }
        // The root: only its own chain, if any.
        if node.hasMiddleware {
            tap(node, action, sentTo: node)
        }
        return true
    }

    /// `observeOnly` for an action to a node below the root: the chain may be the node's or an
    /// ancestor's, as in `runChains`.
    @inline(never)
    private func observeFromAbove<Action>(
        _ action: Action,
        at node: ActionNode<Action>,
        entry: EntryContext
    ) -> Bool {
        var holder: ActionNode<Action>?
        var current: ActionNode<Action>? = node
        while let candidate = current, candidate.depth >= entry.resumeDepth {
            if candidate.hasMiddleware {
                guard holder == nil else { return false }
                holder = candidate
            }
            current = candidate.untranslatedParent()
        }
        if let holder {
            let holdsTarget = holdTarget(node)
            tap(holder, action, sentTo: node)
            if holdsTarget {
                queueState.heldTarget = nil
            }
        }
        return true
    }

    /// Runs the taps of the chain of `holder`, whose middleware all only observe, for `action`, sent to
    /// `target`.
    @inline(__always)
    private func tap<Action>(_ holder: ActionNode<Action>, _ action: Action, sentTo target: ActionNode<Action>) {
        queueState.currentTarget = ObjectIdentifier(target)
        holder.withMiddleware { $0.tap(action) }
        queueState.currentTarget = nil
    }

    /// On the queue: runs the middleware stage for `action`, sent to `node`, with `node` as the current
    /// target; returns how the action's processing ends when the stage stops it, or `nil` when `action`
    /// (possibly replaced) goes on to the reducers.
    @inline(__always)
    private func middlewareStage<Action>(
        _ action: inout Action,
        at node: ActionNode<Action>,
        entry: EntryContext
    ) -> ProcessOutcome? {
        queueState.currentTarget = ObjectIdentifier(node)
        let result = runMiddleware(&action, at: node, entry: entry)
        queueState.currentTarget = nil
        switch result {
        case .forwarded:
            return nil
        case .blocked:
            return .blocked
        case .failed(let error):
            return .failed(error)
        }
    }

    /// On the queue: `process` with the middleware stage, the diagnostics and the cycle detection.
    private func processSupervised<Action>(
        _ action: inout Action,
        at node: ActionNode<Action>,
        entry: EntryContext
    ) -> ProcessOutcome {
        recordCause(of: action, at: node, causes: entry.causes)
        defer { queueState.currentCauses = nil }
        if hasDiagnostics {
            diagnostics?.record(.received(store: node.storeID, action: String(describing: action)))
        }
        if queueState.hasMiddleware, let stopped = middlewareStage(&action, at: node, entry: entry) {
            return stopped
        }
        guard hasDiagnostics, let diagnostics else {
            reduceAndPublish(action, at: node)
            return .reduced
        }
        let clock = ContinuousClock()
        let started = clock.now
        let notified = reduceAndPublish(action, at: node, countingObservers: true)
        diagnostics.record(
            .reduced(store: node.storeID, action: String(describing: action), duration: clock.now - started)
        )
        diagnostics.record(.observersNotified(store: node.storeID, count: notified))
        return .reduced
    }

    /// On the queue: the reducers from `node` up to the root, then the walk down; returns how many
    /// observers were called when `countingObservers` (for diagnostics), 0 otherwise.
    @discardableResult
    @inline(__always)
    private func reduceAndPublish<Action>(
        _ action: Action,
        at node: ActionNode<Action>,
        countingObservers: Bool = false
    ) -> Int {
        #if DEBUG
        precondition(!queueState.isProcessing, "Internal inconsistency: an action was reduced while another one was")
        queueState.isProcessing = true
        defer { queueState.isProcessing = false }
        #endif
        var notified = 0
        // The path is recorded, and the walk's scratch space taken, only when something listens, that
        // is when the walk down will read them.
        if queueState.isListenedTo {
            var walk = takeWalk()
            reduceUp(action, from: node, path: &walk.path)
            notified = publishDown(
                from: node,
                path: walk.path,
                stack: &walk.stack,
                countingObservers: countingObservers
            )
            // Emptied one by one: the path is a few nodes long, and `removeAll(keepingCapacity:)` costs
            // more than that.
            while walk.path.popLast() != nil {}
            putBack(walk)
        } else {
            var unrecorded = UnrecordedPath()
            reduceUp(action, from: node, path: &unrecorded)
        }
        if node.mayReceiveAsyncActions {
            node.startIfAsync(action)
        }
        return notified
    }

    /// On the queue: whether `node` is the node the action in the middleware stage was sent to.
    @inline(__always)
    func isCurrentTarget(_ node: ObjectIdentifier) -> Bool {
        // Unwrapped first: `==` on the optional cost the recorder about 5 instructions per action.
        guard let currentTarget = queueState.currentTarget else { return false }
        return currentTarget == node
    }

    /// On the queue, while an action goes through the middleware stage: the node it was sent to.
    private func currentTargetNode() -> TreeNode? {
        guard let identity = queueState.currentTarget else { return nil }
        if let held = queueState.heldTarget {
            assert(ObjectIdentifier(held) == identity, "Internal inconsistency: the held target is another node")
            return held
        }
        let root = self.root
        assert(ObjectIdentifier(root) == identity, "Internal inconsistency: a target below the root is not held")
        return root
    }

    /// On the queue, while an action goes through the middleware stage: the ID of the node it was sent
    /// to.
    func currentTargetID() -> StoreID? {
        currentTargetNode()?.storeID
    }

    /// On the queue: runs the middleware of `node` and of its ancestors that take the same actions,
    /// the root's first. Each chain gets the action the chain before it forwarded.
    @inline(__always)
    private func runMiddleware<Action>(
        _ action: inout Action,
        at node: ActionNode<Action>,
        entry: EntryContext
    ) -> MiddlewareResult {
        // An action to the root meets the root's chain only: run it without looking further.
        guard node.depth == 0, entry.resumeDepth <= 0 else {
            return runChains(&action, from: node, entry: entry)
        }
        guard node.hasMiddleware else { return .forwarded }
        let start = Self.chainStart(at: 0, entry: entry)
        return node.withMiddleware { $0.run(&action, from: start) }
    }

    /// `runMiddleware` for an action below the root, or resumed: the chains from `node` up, as far as
    /// the entry's resume depth, the root's first.
    ///
    /// One walk up: each call finds the nearest node with middleware at or above `node` and calls itself
    /// for the nodes above that one before running its chain, so it collects nothing. It nests once per
    /// chain met, not per level, and at most ``chainNestingLimit`` times: past that, the chains above are
    /// collected and run in a loop (`runCollectedChains`), so a tree with middleware at thousands of
    /// levels does not run the drain's thread out of stack.
    ///
    /// The first call, from `node`, the node the action was sent to, holds that node as the current target
    /// while the chains run, when it is below the root (``TreeQueueState/heldTarget``).
    private func runChains<Action>(
        _ action: inout Action,
        from node: ActionNode<Action>?,
        entry: EntryContext,
        nesting: Int = 0
    ) -> MiddlewareResult {
        var current = node
        while let candidate = current, candidate.depth >= entry.resumeDepth, !candidate.hasMiddleware {
            current = candidate.untranslatedParent()
        }
        guard let holder = current, holder.depth >= entry.resumeDepth else { return .forwarded }
        let holdsTarget = nesting == 0 && holdTarget(node)
        var result = MiddlewareResult.forwarded
        // The chains above run first. A holder with no node above that takes its actions (the root,
        // usually) has none, and the call is skipped: a tree with one chain, on its root, then runs the
        // stage for a child's action in one frame (tree width with a root middleware about 80 less).
        if let above = holder.untranslatedParent(), above.depth >= entry.resumeDepth {
            result =
                nesting < Self.chainNestingLimit
                ? runChains(&action, from: above, entry: entry, nesting: nesting + 1)
                : runCollectedChains(&action, from: above, entry: entry)
        }
        if case .forwarded = result {
            let start = Self.chainStart(at: holder.depth, entry: entry)
            result = holder.withMiddleware { $0.run(&action, from: start) }
        }
        if holdsTarget {
            queueState.heldTarget = nil
        }
        return result
    }

    /// Holds `target`, the node an action in the middleware stage was sent to, as the current target
    /// when it is below the root, and returns whether it did; the caller lets go of it after the stage.
    @inline(__always)
    private func holdTarget(_ target: TreeNode?) -> Bool {
        guard let target, target.depth > 0 else { return false }
        // The stage is never entered again while it runs, so nothing is held yet. Tested, as in
        // `ActionNode.withMiddleware`, so that the assignment does not release the `nil` in the field.
        guard queueState.heldTarget == nil else {
            preconditionFailure("Internal inconsistency: a middleware stage began inside another")
        }
        queueState.heldTarget = target
        return true
    }

    /// How deep `runChains` nests before it collects the rest: paths with that many chains are rare,
    /// and each level of nesting is a stack frame on the drain's thread.
    private static var chainNestingLimit: Int { 16 }

    /// `runChains` past its nesting limit: the chains from `node` up, collected, then run the root's
    /// first.
    private func runCollectedChains<Action>(
        _ action: inout Action,
        from node: ActionNode<Action>?,
        entry: EntryContext
    ) -> MiddlewareResult {
        // Collected from `node` upwards, so run from the last; each chain as `runChains` runs it.
        var holders: [ActionNode<Action>] = []
        var current = node
        while let candidate = current, candidate.depth >= entry.resumeDepth {
            if candidate.hasMiddleware {
                holders.append(candidate)
            }
            current = candidate.untranslatedParent()
        }
        for holder in holders.reversed() {
            let start = Self.chainStart(at: holder.depth, entry: entry)
            let result = holder.withMiddleware { $0.run(&action, from: start) }
            guard case .forwarded = result else { return result }
        }
        return .forwarded
    }

    /// The first middleware to run in the chain of the node at `depth`: the entry's resume point in the
    /// chain it resumes, the first everywhere else.
    @inline(__always)
    private static func chainStart(at depth: Int, entry: EntryContext) -> Int {
        depth == entry.resumeDepth ? entry.middlewareStart : 0
    }

    /// On the queue, during the middleware stage: a route to the node the action was sent to, when it
    /// takes `Action`s.
    func currentRoute<Action>(_: Action.Type) -> WeakReceiver<Action>? {
        guard let target = currentTargetNode() as? ActionNode<Action> else { return nil }
        return WeakReceiver(NodeReference(target))
    }

    /// From any thread, with cycle detection on: the causes of an action dispatched now. When the caller
    /// is the drain handling an action (an observer, an effect's start, a middleware), the new action is
    /// caused by it: the chain so far, ending with the handled action's kind. From anywhere else, `nil`:
    /// the action starts a chain of its own.
    var causesOfDispatchNow: [String]? {
        guard detectsCycles, drainingThread.isCurrent else { return nil }
        return queueState.currentCauses
    }

    /// On the queue, with cycle detection on: counts `action` and follows its causes; reports what
    /// passes a limit. Never drops the action.
    private func recordCause<Action>(of action: Action, at node: ActionNode<Action>, causes: [String]?) {
        guard detectsCycles, queueState.cycleDetector != nil else { return }
        let kind = CycleDetector.kind(of: action)
        let causes = causes ?? []
        // In place: a copy would copy the detector's tables on every action.
        let reports = queueState.cycleDetector!.record(kind: kind, causes: causes, now: scheduler.now)
        queueState.currentCauses = causes + [kind]
        for report in reports {
            if let diagnostics {
                diagnostics.record(.cycle(store: node.storeID, report: report))
            } else if case .depth = report.reason {
                // With nobody to tell, a chain that deep is a programming error worth stopping a debug
                // build for; a burst of one kind is not, and is left to diagnostics.
                assertionFailure("\(node.storeID): \(report)")
            }
        }
    }

    /// On the queue: runs the reducers from `node` up to the root, leaf first, recording each node above
    /// `node` in `path`. `node` itself is not recorded: the walk down takes the receiving node as an
    /// argument, and a view that translates actions records its parent before it calls this again.
    ///
    /// A node that translates actions (`map(actions:)`) continues the walk with the translated action
    /// by calling this again, so each translation on the path adds one stack frame; the tree's depth
    /// alone adds none (a store tree may be thousands of levels deep, and a dispatch queue's thread
    /// has a small stack).
    ///
    /// Each node above `node` comes back from its child's `reduceOwn` as a reference of the walk's own,
    /// which moves into the path: holding the path's nodes costs no retain of its own.
    @inline(__always)
    func reduceUp<Action, Path: PathRecorder>(_ action: Action, from node: ActionNode<Action>, path: inout Path) {
        guard var next = node.reduceOwn(action) else {
            node.continueTranslated(action, path: &path)
            return
        }
        var below = ObjectIdentifier(node)
        while true {
            let reduced = ObjectIdentifier(next)
            guard let further = next.reduceOwn(action) else {
                guard next.translatesActions else {
                    path.record(consume next, above: below)
                    return
                }
                path.record(next, above: below)
                next.continueTranslated(action, path: &path)
                return
            }
            path.record(consume next, above: below)
            below = reduced
            next = further
        }
    }

    /// The walks' scratch space, moved out of ``TreeQueueState/spareWalk``.
    @inline(__always)
    private func takeWalk() -> Walk {
        var taken: Walk?
        swap(&taken, &queueState.spareWalk)
        // Moved out of the optional, not copied: a copy would retain the two arrays.
        switch consume taken {
        case .some(let walk):
            return walk
        case .none:
            preconditionFailure("Internal inconsistency: an action was processed while another one was")
        }
    }

    /// Gives the walks' scratch space back to ``TreeQueueState/spareWalk``, for the next action.
    @inline(__always)
    private func putBack(_ walk: consuming Walk) {
        var given: Walk? = walk
        swap(&given, &queueState.spareWalk)
    }

    /// Moves the array out of `field`, leaving it empty: a move, with no call and no reference counting
    /// inside the access to `field`.
    @inline(__always)
    private static func take<Element>(_ field: inout [Element]) -> [Element] {
        var taken: [Element] = []
        swap(&taken, &field)
        return taken
    }

    /// On the queue: walks down from the root after `reduceUp`.
    ///
    /// Nodes on the path are refreshed and notified (their observers see every action that passed
    /// through them, as in Puredux). Off the path, a subtree is visited only when its parent's state may
    /// have changed: a sibling whose inputs provably did not change costs nothing. Iterative, in
    /// depth-first order: a node's observers run before its children's, children in attach order.
    ///
    /// The path's nodes are numbered from the receiving node, 0, up to the root, `path.count`: node `i`
    /// above the receiving node is `path[i - 1].node`. Every node the walk visits is borrowed, with no
    /// reference counting and no check switched off: the receiving node is an argument, the nodes above
    /// it are held by `path`, also an argument, and every other node by the slots of its parent's list
    /// as the walk read them, which the walk's stack holds for the nodes it comes back to.
    ///
    /// The compiler borrows a node read from an array only in a function that releases nothing while it
    /// uses the node: the functions that visit a node leave every release (of a list's slots, of the
    /// stack's old block) to functions of their own.
    ///
    /// Returns how many observers were called, when `countingObservers` (a node keeps no count of its
    /// own to read cheaply), 0 otherwise.
    private func publishDown(
        from receiver: TreeNode,
        path: NodePath,
        stack: inout [Visit],
        countingObservers: Bool
    ) -> Int {
        var notified = 0
        let outer = callingThread.enter()
        defer { callingThread.leave(restoring: outer) }
        #if DEBUG
        queueState.isWalkingDown = true
        defer { queueState.isWalkingDown = false }
        #endif
        // The next node on the path is visited straight after the one above it, without a round trip
        // through the stack: an action that changed nothing off its path walks the path with no stack.
        var onPath: Int? = path.count
        while true {
            if let index = onPath {
                onPath = visitPathNode(at: index, receiver, path, stack: &stack, &notified, countingObservers)
                continue
            }
            guard let visit = stack.popLast() else { break }
            onPath = visitFromStack(visit, receiver, path, stack: &stack, &notified, countingObservers)
        }
        return notified
    }

    /// Visits path node `index`: the receiving node, or the node the path holds.
    @inline(never)
    private func visitPathNode(
        at index: Int,
        _ receiver: TreeNode,
        _ path: NodePath,
        stack: inout [Visit],
        _ notified: inout Int,
        _ countingObservers: Bool
    ) -> Int? {
        guard index > 0 else {
            return visitNode(
                receiver,
                parentChanged: false,
                pathIndex: 0,
                receiver,
                path,
                stack: &stack,
                &notified,
                countingObservers
            )
        }
        return visitNode(
            path[index - 1].node,
            parentChanged: false,
            pathIndex: index,
            receiver,
            path,
            stack: &stack,
            &notified,
            countingObservers
        )
    }

    /// Goes on with `visit`, from the walk's stack: a child with children of its own, borrowed from the
    /// slots the visit holds, or the rest of a list.
    @inline(never)
    private func visitFromStack(
        _ visit: Visit,
        _ receiver: TreeNode,
        _ path: NodePath,
        stack: inout [Visit],
        _ notified: inout Int,
        _ countingObservers: Bool
    ) -> Int? {
        guard !visit.isRest else {
            walkSlots(
                visit.slots,
                from: visit.slot,
                parentPathIndex: visit.pathIndex,
                pathChild: Self.pathChild(below: visit.pathIndex, receiver, path),
                stack: &stack,
                &notified,
                countingObservers
            )
            return nil
        }
        switch visit.slots[visit.slot] {
        case .some(let node) where node.isAttached:
            return visitNode(
                node,
                parentChanged: true,
                pathIndex: visit.pathIndex,
                receiver,
                path,
                stack: &stack,
                &notified,
                countingObservers
            )
        default:
            return nil
        }
    }

    /// The identity of the child on the action's path of path node `index`, if the path goes on below
    /// it; otherwise that of the receiving node, which is a child neither of itself nor of a node off
    /// the path.
    @inline(__always)
    private static func pathChild(below index: Int, _ receiver: TreeNode, _ path: NodePath) -> ObjectIdentifier {
        index > 0 ? path[index - 1].childOnPath : ObjectIdentifier(receiver)
    }

    /// On the queue, during the walk down: refreshes and notifies `node`, then goes on to its children
    /// if its state may have changed; if it provably did not, returns the number of the next node on
    /// the action's path, if the path goes on and that node is attached.
    @inline(__always)
    private func visitNode(
        _ node: TreeNode,
        parentChanged: Bool,
        pathIndex: Int,
        _ receiver: TreeNode,
        _ path: NodePath,
        stack: inout [Visit],
        _ notified: inout Int,
        _ countingObservers: Bool
    ) -> Int? {
        let changed = node.visit(parentChanged: parentChanged, onPath: pathIndex >= 0)
        if countingObservers {
            notified += node.observerCount
        }
        if changed {
            if node.hasChildren {
                let pathChild = Self.pathChild(below: pathIndex, receiver, path)
                visitChildren(
                    of: node,
                    parentPathIndex: pathIndex,
                    pathChild: pathChild,
                    stack: &stack,
                    &notified,
                    countingObservers
                )
            }
            return nil
        }
        guard pathIndex > 1 else {
            // Below node 1 is the receiving node, an argument; the path ends at it.
            return pathIndex == 1 && receiver.isAttached ? 0 : nil
        }
        return path[pathIndex - 2].node.isAttached ? pathIndex - 1 : nil
    }

    /// Visits the children of `node`, from the slots of its list as they are now.
    @inline(never)
    private func visitChildren(
        of node: TreeNode,
        parentPathIndex: Int,
        pathChild: ObjectIdentifier,
        stack: inout [Visit],
        _ notified: inout Int,
        _ countingObservers: Bool
    ) {
        walkSlots(
            node.childSlots,
            from: 0,
            parentPathIndex: parentPathIndex,
            pathChild: pathChild,
            stack: &stack,
            &notified,
            countingObservers
        )
    }

    /// Walks `children` from slot `start` on (``walkChildren(_:from:parentPathIndex:pathChild:stack:notified:countingObservers:)``),
    /// in one of two copies, with and without counting observers, so that each keeps its values in
    /// registers around the visits' calls. Each takes the slots as an argument, which it borrows for the
    /// call: its children are then visited where they are, with no reference counting (read from slots
    /// held in a local, each child was retained around its visit).
    @inline(__always)
    private func walkSlots(
        _ children: ContiguousArray<TreeNode?>,
        from start: Int,
        parentPathIndex: Int,
        pathChild: ObjectIdentifier,
        stack: inout [Visit],
        _ notified: inout Int,
        _ countingObservers: Bool
    ) {
        if countingObservers {
            walkSlotsCountingObservers(
                children,
                from: start,
                parentPathIndex: parentPathIndex,
                pathChild: pathChild,
                stack: &stack,
                &notified
            )
        } else {
            walkSlots(children, from: start, parentPathIndex: parentPathIndex, pathChild: pathChild, stack: &stack)
        }
    }

    /// The loop without counting observers.
    @inline(never)
    private func walkSlots(
        _ children: ContiguousArray<TreeNode?>,
        from start: Int,
        parentPathIndex: Int,
        pathChild: ObjectIdentifier,
        stack: inout [Visit]
    ) {
        var notified = 0
        walkChildren(
            children,
            from: start,
            parentPathIndex: parentPathIndex,
            pathChild: pathChild,
            stack: &stack,
            notified: &notified,
            countingObservers: false
        )
    }

    /// The loop counting the observers it calls, for diagnostics.
    @inline(never)
    private func walkSlotsCountingObservers(
        _ children: ContiguousArray<TreeNode?>,
        from start: Int,
        parentPathIndex: Int,
        pathChild: ObjectIdentifier,
        stack: inout [Visit],
        _ notified: inout Int
    ) {
        walkChildren(
            children,
            from: start,
            parentPathIndex: parentPathIndex,
            pathChild: pathChild,
            stack: &stack,
            notified: &notified,
            countingObservers: true
        )
    }

    /// Visits the leaves among `children`, the slots of a node's list as they were when the walk came to
    /// it, from slot `start` on, up to the first child with children of its own, which it puts on the
    /// walk's stack, above the rest of the slots: that child's subtree is walked first and the list
    /// resumes after it, in depth-first order, with one stack entry per node that has children rather
    /// than one per child.
    ///
    /// The children's own visits may empty slots of the list, or all of it: a child taken out of the list
    /// meanwhile is no longer attached, and is skipped. `pathChild` is the identity of the child on the
    /// action's path, number `parentPathIndex - 1`, if the path goes on below the node, and otherwise
    /// one of no child of the node.
    @inline(__always)
    private func walkChildren(
        _ children: ContiguousArray<TreeNode?>,
        from start: Int,
        parentPathIndex: Int,
        pathChild: ObjectIdentifier,
        stack: inout [Visit],
        notified: inout Int,
        countingObservers: Bool
    ) {
        let pathChildIndex = parentPathIndex - 1
        var parentSlot = -1
        var parentPathIndex = -1
        // The slots end where the list ended when the walk read it.
        leaves: for slot in Swift.min(start, children.count)..<children.count {
            // A switch borrows the child in place: a binding (`if let`) copies it, which retains and
            // releases it around its visit. Nothing in this loop may release an object either (pushing
            // onto the stack may free its old block): the compiler then retains each child too.
            switch children[slot] {
            case .some(let child) where child.isAttached:
                let pathIndex = ObjectIdentifier(child) == pathChild ? pathChildIndex : -1
                if child.hasChildren {
                    parentSlot = slot
                    parentPathIndex = pathIndex
                    break leaves
                }
                // A leaf's visit goes no further: the path, if it went on below the leaf, would go
                // through an attached child.
                _ = child.visit(parentChanged: true, onPath: pathIndex >= 0)
                if countingObservers {
                    notified += child.observerCount
                }
            default:
                continue
            }
        }
        guard parentSlot >= 0 else { return }
        if parentSlot + 1 < children.count {
            // Only if more slots follow: the last child of every level of a deep chain would otherwise
            // leave an entry on the stack, for nothing.
            stack.append(Visit(rest: children, from: parentSlot + 1, parentPathIndex: pathChildIndex + 1))
        }
        stack.append(Visit(child: children, at: parentSlot, pathIndex: parentPathIndex))
    }

    /// The scratch space of one action's walks, reused from one action to the next.
    struct Walk: ~Copyable {
        /// The nodes above the receiving node that the action was reduced by, its parent first and the
        /// root last, when the root has listeners (otherwise nothing is published and the path is not
        /// recorded). Emptied after each action.
        var path: NodePath = []
        /// What the walk down still has to do.
        fileprivate var stack: [Visit] = []
    }

    /// What the walk down still has to do: visit a child that has children of its own, or go on with the
    /// rest of a node's list. Either way the visit holds the slots of the list as the walk read them,
    /// which hold the child, or those of the rest.
    fileprivate struct Visit {
        /// The slots of a node's list of children, as the walk read them.
        let slots: ContiguousArray<TreeNode?>
        /// The child to visit, or the first slot of the rest of the list.
        let slot: Int
        /// For a child: its number on the action's path, or -1 when it is off the path. For the rest of
        /// a list: the number of the node whose list it is, or -1.
        let pathIndex: Int
        /// Whether the visit is the rest of a list rather than one child.
        let isRest: Bool

        /// A visit of the child in slot `slot` of `slots`, whose parent's state may have changed.
        init(child slots: ContiguousArray<TreeNode?>, at slot: Int, pathIndex: Int) {
            self.slots = slots
            self.slot = slot
            self.pathIndex = pathIndex
            self.isRest = false
        }

        /// The rest of a list, from slot `slot` of `slots` on.
        init(rest slots: ContiguousArray<TreeNode?>, from slot: Int, parentPathIndex: Int) {
            self.slots = slots
            self.slot = slot
            self.pathIndex = parentPathIndex
            self.isRest = true
        }
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
