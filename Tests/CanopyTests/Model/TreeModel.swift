@testable import Canopy

/// The reference: a plain synchronous implementation of what SPEC §2 says a store tree does, for the
/// trees the random operations build. It knows nothing of the engine.
///
/// Handles are numbered in creation order; 0 is the root. A child's state is its parent's state with
/// its own value appended; a view's state is its map applied to its parent's.
struct TreeModel {
    enum Kind {
        case root
        case child(parent: Int)
        case jobChild(parent: Int)
        case view(parent: Int, state: StateMap, action: ActionMap)

        var parent: Int? {
            switch self {
            case .root: nil
            case .child(let parent), .jobChild(let parent), .view(let parent, _, _): parent
            }
        }
    }

    struct Handle {
        var kind: Kind
        var value = 0
        var job = Effect.State.idle()
        /// Whether the test still holds a handle to it.
        var held = true
        /// Whether the node is still alive: held, or an ancestor of something alive.
        var alive = true
    }

    /// What an observer may receive next: a state, and whether the engine may skip it (SPEC §8).
    struct Expected: Equatable, CustomStringConvertible {
        var state: [Int]
        var optional: Bool

        var description: String { optional ? "\(state)?" : "\(state)" }
    }

    enum SubscriptionKind {
        case raw(deadAfter: Int?)
        case dedup(EquatingKind)
    }

    struct Subscription {
        let handle: Int
        let kind: SubscriptionKind
        var active = true
        var expected: [Expected] = []
        /// The last state the observer's store produced, given or skippable.
        var lastSeen: [Int]?
        var lastAccepted: [Int]?

        mutating func offer(_ state: [Int], optional: Bool) {
            guard active else { return }
            lastSeen = state
            switch kind {
            case .raw:
                expected.append(Expected(state: state, optional: optional))
            case .dedup(let equating):
                if let lastAccepted, equating.isDuplicate(lastAccepted, state) { return }
                lastAccepted = state
                expected.append(Expected(state: state, optional: optional))
            }
        }
    }

    private(set) var handles = [Handle(kind: .root)]
    private(set) var subscriptions: [Subscription] = []
    /// The job child whose effect run is pending on the manual clock, and when it falls due.
    private(set) var pendingRuns: [(handle: Int, due: Int, attempt: Effect.State)] = []
    private(set) var now = 0

    var heldHandles: [Int] { handles.indices.filter { handles[$0].held } }

    func state(of handle: Int) -> [Int] {
        switch handles[handle].kind {
        case .root: [handles[handle].value]
        case .child(let parent): state(of: parent) + [handles[handle].value]
        case .jobChild(let parent): state(of: parent) + [JobCommand.code(handles[handle].job)]
        case .view(let parent, let map, _): map.apply(state(of: parent))
        }
    }

    mutating func add(_ kind: Kind) -> Int {
        handles.append(Handle(kind: kind))
        return handles.count - 1
    }

    mutating func subscribe(_ handle: Int, _ kind: SubscriptionKind) -> Int {
        var subscription = Subscription(handle: handle, kind: kind)
        subscription.offer(state(of: handle), optional: false)
        subscriptions.append(subscription)
        return subscriptions.count - 1
    }

    mutating func cancel(_ subscription: Int) {
        subscriptions[subscription].active = false
    }

    /// Drops the test's handle; the nodes nothing holds any more die, with their effects and observers.
    mutating func drop(_ handle: Int) {
        handles[handle].held = false
        var retained = handles.map(\.held)
        for index in handles.indices.reversed() where retained[index] {
            if let parent = handles[index].kind.parent { retained[parent] = true }
        }
        for index in handles.indices where handles[index].alive && !retained[index] {
            handles[index].alive = false
            // Releasing a store cancels its effects.
            pendingRuns.removeAll { $0.handle == index }
        }
        // An observer subscribed through a view lives in the view's node (the nearest ancestor that is
        // not a view), like one made through a temporary view: it stops when that node is freed.
        for index in subscriptions.indices where !handles[node(of: subscriptions[index].handle)].alive {
            subscriptions[index].active = false
        }
    }

    /// The node a handle views: itself, or for a view, its nearest ancestor that is not a view.
    func node(of handle: Int) -> Int {
        guard case .view(let parent, _, _) = handles[handle].kind else { return handle }
        return node(of: parent)
    }

    /// Reduces `action` sent to `handle`: leaf first, up to the root; then every observer.
    mutating func dispatch(_ action: ModelAction, to handle: Int) {
        var path: Set<Int> = []
        var jobsBefore: [(handle: Int, job: Effect.State)] = []
        var current: Int? = handle
        var action = action
        while let index = current {
            path.insert(index)
            switch handles[index].kind {
            case .root, .child:
                ModelAction.fold(&handles[index].value, action)
            case .jobChild:
                jobsBefore.append((index, handles[index].job))
                JobCommand.reduce(&handles[index].job, action)
            case .view(_, _, let map):
                action = map.apply(action)
            }
            current = handles[index].kind.parent
        }
        // Effects start as the new state flows down, so a parent's run is scheduled before its child's.
        for (index, before) in jobsBefore.reversed() {
            scheduleRun(for: index, before: before)
        }
        for index in subscriptions.indices where subscriptions[index].active {
            let handle = subscriptions[index].handle
            let state = state(of: handle)
            let skippable = !path.contains(handle) && state == subscriptions[index].lastSeen
            subscriptions[index].offer(state, optional: skippable)
        }
    }

    /// The effect engine: a new attempt cancels the pending run and schedules one after its delay;
    /// leaving in progress cancels it.
    private mutating func scheduleRun(for handle: Int, before: Effect.State) {
        let job = handles[handle].job
        guard job != before else { return }
        pendingRuns.removeAll { $0.handle == handle }
        if job.isInProgress {
            pendingRuns.append((handle, now + Int(job.delay ?? 0), job))
        }
    }

    /// Moves the clock: every run that falls due, in order, dispatches `.job(.succeed)` to its job
    /// child, which is reduced only if that run's attempt is still the current one when it gets there
    /// (SPEC 4.4: an earlier run's result in the same advance may have ended it).
    mutating func advance(by interval: Int) {
        now += interval
        let due = pendingRuns.enumerated().filter { $0.element.due <= now }
            .sorted { ($0.element.due, $0.offset) < ($1.element.due, $1.offset) }
            .map(\.element)
        pendingRuns.removeAll { $0.due <= now }
        for run in due where handles[run.handle].alive && handles[run.handle].job == run.attempt {
            dispatch(.job(.succeed), to: run.handle)
        }
    }
}
