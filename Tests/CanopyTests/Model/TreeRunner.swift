import Dispatch
import Testing

@testable import Canopy

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Runs a sequence of ``TreeOperation``s on real stores and on a ``TreeModel`` side by side, and
/// describes the first difference: an observer's states, a store's state, or a node's liveness.
///
/// Everything goes through the public API. Each step is sent from the test's thread, so the engine
/// must reduce and deliver in exactly the model's order; steps whose outcome depends on timing (a
/// cancel, a dropped handle, moving the clock) first wait until the tree has caught up.
final class TreeRunner {
    /// The real handle behind a model handle: its `[Int]` form, plus, for nodes, the node itself.
    private struct RealHandle {
        let flat: StateStore<[Int], ModelAction>
        let dispatch: @Sendable (ModelAction) -> Void
        let subscribeRaw: @Sendable (Observer<[Int]>) -> Void
    }

    /// A child's own state: a value and a token whose release shows the node was freed.
    private struct Local: Sendable {
        var value = 0
        var token = Tracked()
    }

    private struct JobLocal: Sendable {
        var job = Effect.State.idle()
        let token = Tracked()
    }

    private let scheduler = ManualScheduler()
    private let effectQueue = DispatchQueue(label: "canopy.tests.model.effects")
    /// Where props subscriptions compute their props, then where they deliver them.
    private let presentationQueue = DispatchQueue(label: "canopy.tests.model.presentation")
    private let deliveryQueue = DispatchQueue(label: "canopy.tests.model.delivery")
    private let root: StateStore<[Int], ModelAction>
    private var model = TreeModel()
    private var real: [RealHandle?] = []
    /// A `weakStore()` dispatch for every handle ever made, kept after the handle is dropped.
    private var weakDispatches: [@Sendable (ModelAction) -> Void] = []
    private var tokens: [Int: WeakRef<Tracked>] = [:]
    private var recorders: [StateRecorder<[Int]>] = []
    private var cancellables: [Subscription?] = []
    /// The indices of the props subscriptions among the subscriptions.
    private var propsSubscriptions: Set<Int> = []

    /// Filled by the root's reducer: actions of one producer reduced out of the order they were sent.
    private let orderViolations = StateRecorder<String>()
    /// Filled by handlers called after their subscription's `cancel()` returned on another thread.
    private let lateCalls = StateRecorder<Int>()
    private var cancelReturned: [LockedValue<Bool>] = []

    init() {
        let lastSequence = LockedValue<[Int: Int]>([:])
        let orderViolations = orderViolations
        root = StateStore([0], scheduler: scheduler) { state, action in
            ModelAction.fold(&state[0], action)
            if case .add(let producer, let sequence, _) = action {
                let last = lastSequence.withLock { last in
                    defer { last[producer] = sequence }
                    return last[producer] ?? -1
                }
                if sequence != last + 1 {
                    orderViolations.record("producer \(producer): action \(sequence) reduced after \(last)")
                }
            }
        }
        let root = root
        real = [RealHandle(flat: root, dispatch: { root.dispatch($0) }, subscribeRaw: { root.subscribe(observer: $0) })]
        let weakRoot = root.weakStore()
        weakDispatches = [{ weakRoot.dispatch($0) }]
    }

    /// Runs `operations`; returns a description of the first difference from the model, or `nil`.
    func run(_ operations: [TreeOperation]) async -> String? {
        for (step, operation) in operations.enumerated() {
            if let failure = await perform(operation) {
                return "step \(step) \(operation): \(failure)"
            }
        }
        return await check()
    }

    /// Waits until the tree has run everything sent so far and released what it ran.
    private func catchUp() async {
        _ = await root.state
        _ = await root.state
        // Props subscriptions hop to the presentation queue, then to the delivery queue.
        await settle(presentationQueue)
        await settle(deliveryQueue)
    }

    /// Whether dropping `handle` would end a props subscription (its node, or an ancestor that only the
    /// handle's node keeps, would be freed).
    private func dropEndsPropsSubscriptions(_ handle: Int) -> Bool {
        var after = model
        after.drop(handle)
        return propsSubscriptions.contains { model.subscriptions[$0].active && !after.subscriptions[$0].active }
    }

    private func pick(_ number: Int, among candidates: [Int]) -> Int? {
        candidates.isEmpty ? nil : candidates[number % candidates.count]
    }

    private func perform(_ operation: TreeOperation) async -> String? {
        let held = model.heldHandles
        switch operation {
        case .makeChild(let parent):
            guard let parent = pick(parent, among: held), let store = real[parent]?.flat else { return nil }
            let child = store.with(Local()) { local, action in ModelAction.fold(&local.value, action) }
            let index = model.add(.child(parent: parent))
            tokens[index] = WeakRef(await child.state.1.token)
            let weakChild = child.weakStore()
            weakDispatches.append { weakChild.dispatch($0) }
            real.append(
                RealHandle(
                    flat: child.map(state: { $0.0 + [$0.1.value] }),
                    dispatch: { child.dispatch($0) },
                    subscribeRaw: { observer in
                        child.subscribe(observer: Observer(id: observer.id) { observer.observe($0.0 + [$0.1.value]) })
                    }
                )
            )
        case .makeJobChild(let parent):
            guard let parent = pick(parent, among: held), let store = real[parent]?.flat else { return nil }
            let child = store.with(JobLocal()) { local, action in JobCommand.reduce(&local.job, action) }
            child.effect(\.1.job, on: effectQueue) { _, dispatch in
                Effect { dispatch(.job(.succeed)) }
            }
            let index = model.add(.jobChild(parent: parent))
            tokens[index] = WeakRef(await child.state.1.token)
            let flatten: @Sendable (([Int], JobLocal)) -> [Int] = { $0.0 + [JobCommand.code($0.1.job)] }
            let weakChild = child.weakStore()
            weakDispatches.append { weakChild.dispatch($0) }
            real.append(
                RealHandle(
                    flat: child.map(state: flatten),
                    dispatch: { child.dispatch($0) },
                    subscribeRaw: { observer in
                        child.subscribe(observer: Observer(id: observer.id) { observer.observe(flatten($0)) })
                    }
                )
            )
        case .makeView(let parent, let stateMap, let actionMap):
            guard let parent = pick(parent, among: held), let store = real[parent]?.flat else { return nil }
            let mapped = store.map(state: { stateMap.apply($0) })
            let view: StateStore<[Int], ModelAction>
            if actionMap == .triple {
                // Through an action of another type and back: the children of such a view get their
                // actions as work items (`ActionNode.push` with no inbox), not through the root's inbox.
                view = mapped.map(actions: { (translated: TranslatedAction) in actionMap.apply(translated.action) })
                    .map(actions: { TranslatedAction(action: $0) })
            } else {
                view = mapped.map(actions: { actionMap.apply($0) })
            }
            _ = model.add(.view(parent: parent, state: stateMap, action: actionMap))
            let weakView = view.weakStore()
            weakDispatches.append { weakView.dispatch($0) }
            real.append(
                RealHandle(flat: view, dispatch: { view.dispatch($0) }, subscribeRaw: { view.subscribe(observer: $0) })
            )
        case .subscribeRaw(let target, let deadAfter):
            guard let target = pick(target, among: held), let handle = real[target] else { return nil }
            let recorder = StateRecorder<[Int]>()
            let calls = LockedValue(0)
            handle.subscribeRaw(
                Observer { state in
                    recorder.record(state)
                    let count = calls.withLock { count in
                        count += 1
                        return count
                    }
                    return deadAfter.map { count >= $0 } == true ? .dead : .active
                }
            )
            _ = model.subscribe(target, .raw(deadAfter: deadAfter))
            recorders.append(recorder)
            cancellables.append(nil)
            cancelReturned.append(LockedValue(false))
        case .subscribeDedup(let target, let equating):
            guard let target = pick(target, among: held), let handle = real[target] else { return nil }
            let recorder = StateRecorder<[Int]>()
            let returned = LockedValue(false)
            let lateCalls = lateCalls
            let index = recorders.count
            let subscription = handle.flat.subscribe(removeStateDuplicates: equating.equating) { state in
                if returned.withLock({ $0 }) { lateCalls.record(index) }
                recorder.record(state)
            }
            _ = model.subscribe(target, .dedup(equating))
            recorders.append(recorder)
            cancellables.append(subscription)
            cancelReturned.append(returned)
        case .subscribeProps(let target, let equating):
            // SPEC 3.1 with no debounce and serial queues: every state that passes dedup, in order, as a
            // deduplicating subscription would see them; only later, on the delivery queue.
            guard let target = pick(target, among: held), let handle = real[target] else { return nil }
            let recorder = StateRecorder<[Int]>()
            let returned = LockedValue(false)
            let lateCalls = lateCalls
            let index = recorders.count
            let subscription = handle.flat.subscribe(
                .queue(
                    deliveryQueue,
                    removeStateDuplicates: equating.equating,
                    debounce: .immediate,
                    presentationQueue: presentationQueue
                ),
                props: { state, _ in state },
                observe: { state in
                    if returned.withLock({ $0 }) { lateCalls.record(index) }
                    recorder.record(state)
                }
            )
            _ = model.subscribe(target, .dedup(equating))
            propsSubscriptions.insert(recorders.count)
            recorders.append(recorder)
            cancellables.append(subscription)
            cancelReturned.append(returned)
        case .cancel(let number):
            let cancellable = cancellables.indices.filter { cancellables[$0] != nil }
            guard let index = pick(number, among: cancellable) else { return nil }
            await catchUp()
            cancellables[index]?.cancel()
            cancellables[index] = nil
            model.cancel(index)
        case .drop(let target):
            guard let target = pick(target, among: held.filter { $0 != 0 }) else { return nil }
            await catchUp()
            real[target] = nil
            model.drop(target)
            await catchUp()
            return checkLiveness()
        case .dispatchThroughTemporaryChild(let parent, let action):
            // SPEC 2.2: an action sent through a handle nobody keeps is still reduced, then the child
            // is freed.
            guard let parent = pick(parent, among: held), let store = real[parent]?.flat else { return nil }
            var local = Local()
            let index = model.add(.child(parent: parent))
            tokens[index] = WeakRef(local.token)
            store.with(local) { local, action in ModelAction.fold(&local.value, action) }.dispatch(action)
            local.token = Tracked()
            real.append(nil)
            weakDispatches.append { _ in }
            model.dispatch(action, to: index)
            model.drop(index)
            await catchUp()
            return checkLiveness()
        case .dispatchThroughWeakHandle(let target, let action):
            // Any handle made so far, dropped or not: a weak handle reaches the store while its node
            // lives; a view's weak handle keeps the view's transforms over its node's weak handle.
            let target = target % model.handles.count
            weakDispatches[target](action)
            if model.handles[model.node(of: target)].alive {
                model.dispatch(action, to: target)
            }
        case .dispatchThroughWeakHandleThenDrop(let target, let action):
            // SPEC 2.1: an action a weak handle accepted is reduced even if the store's last handle goes
            // right after, before the queue reaches the action. Not where the drop would end a props
            // subscription: when a store goes, its props still on their way to the delivery queue are
            // dropped (the subscription ends with the store), which the model does not follow.
            let candidates = held.filter { $0 != 0 && !dropEndsPropsSubscriptions($0) }
            guard let target = pick(target, among: candidates) else { return nil }
            weakDispatches[target](action)
            real[target] = nil
            model.dispatch(action, to: target)
            model.drop(target)
            await catchUp()
            return checkLiveness()
        case .dispatch(let target, let action):
            guard let target = pick(target, among: held), let handle = real[target] else { return nil }
            handle.dispatch(action)
            model.dispatch(action, to: target)
        case .advance(let interval):
            await catchUp()
            scheduler.advance(by: TimeInterval(interval))
            model.advance(by: interval)
        }
        return nil
    }

    /// Builds a tree with `structure`, then sends `actionsPerProducer` commutative actions from each of
    /// `producers` threads to random stores while another thread cancels random subscriptions.
    ///
    /// The interleaving is the engine's, so instead of exact sequences it checks what holds for every
    /// interleaving: each producer's actions are reduced in the order sent; the root's observer sees
    /// one state per action; no handler starts after its `cancel()` returned; every store ends in the
    /// model's state, and every observer still subscribed was last given that state.
    func runConcurrently(
        structure: [TreeOperation],
        producers: Int,
        actionsPerProducer: Int,
        using random: inout SplitMix64
    ) async -> String? {
        if let failure = await run(structure) { return "building the tree: \(failure)" }
        let targets = model.heldHandles
        let plans = (0..<producers).map { producer in
            (0..<actionsPerProducer).map { sequence in
                let target = targets[random.next(below: targets.count)]
                return (
                    target, ModelAction.add(producer: producer, sequence: sequence, amount: 1 + random.next(below: 9))
                )
            }
        }
        let cancels = cancellables.indices.filter { cancellables[$0] != nil && random.chance(50) }
        let rootCalls = StateRecorder<[Int]>()
        root.subscribe(
            observer: Observer { state in
                rootCalls.record(state)
                return .active
            }
        )
        _ = await rootCalls.waitFor(count: 1)
        let finished = StateRecorder<Int>()
        for (producer, plan) in plans.enumerated() {
            let stores = plan.map { real[$0.0]!.dispatch }
            let actions = plan.map(\.1)
            DispatchQueue.global().async {
                for (dispatch, action) in zip(stores, actions) { dispatch(action) }
                finished.record(producer)
            }
        }
        let cancelled = cancels.map { (cancellables[$0]!, cancelReturned[$0]) }
        DispatchQueue.global().async {
            for (subscription, returned) in cancelled {
                subscription.cancel()
                returned.withLock { $0 = true }
            }
            finished.record(-1)
        }
        _ = await finished.waitFor(count: producers + 1)
        for index in cancels {
            cancellables[index] = nil
            model.cancel(index)
        }
        for (target, action) in plans.joined() {
            model.dispatch(action, to: target)
        }
        await catchUp()
        if !orderViolations.values.isEmpty { return "out of order: \(orderViolations.values)" }
        if !lateCalls.values.isEmpty {
            return "handlers called after cancel() returned: subscriptions \(lateCalls.values)"
        }
        let calls = rootCalls.values.count - 1
        if calls != producers * actionsPerProducer {
            return "the root's observer saw \(calls) states for \(producers * actionsPerProducer) actions"
        }
        for index in model.heldHandles {
            guard let store = real[index]?.flat else { continue }
            let actual = await store.state
            if actual != model.state(of: index) {
                return "handle \(index) has state \(actual), the model says \(model.state(of: index))"
            }
        }
        for (index, subscription) in model.subscriptions.enumerated() where subscription.active {
            let expected = model.state(of: subscription.handle)
            guard let last = recorders[index].values.last else { continue }
            let agrees =
                switch subscription.kind {
                case .raw(let deadAfter): deadAfter != nil || last == expected
                case .dedup(.always): true
                case .dedup(.never): last == expected
                case .dedup(let equating): equating.isDuplicate(last, expected)
                }
            if !agrees {
                return
                    "subscription \(index) (\(subscription.kind) on handle \(subscription.handle)) was last given \(last), "
                    + "the store ends in \(expected)"
            }
        }
        return nil
    }

    private func checkLiveness() -> String? {
        for (index, token) in tokens.sorted(by: { $0.key < $1.key }) {
            let alive = token.object != nil
            if alive != model.handles[index].alive {
                return "node \(index) is \(alive ? "alive" : "freed"), the model says \(alive ? "freed" : "alive")"
            }
        }
        return nil
    }

    /// Compares every observer's states and every held store's state with the model.
    private func check() async -> String? {
        await catchUp()
        for index in model.subscriptions.indices {
            let subscription = model.subscriptions[index]
            let actual = recorders[index].values
            var cap: Int?
            if case .raw(let deadAfter) = subscription.kind { cap = deadAfter }
            if !Self.matches(actual, subscription.expected, cap: cap) {
                return
                    "subscription \(index) (\(subscription.kind) on handle \(subscription.handle)) received \(actual), "
                    + "the model expects \(subscription.expected) (a ? marks a state that may be skipped)"
            }
        }
        for index in model.heldHandles {
            guard let store = real[index]?.flat else { continue }
            let actual = await store.state
            let expected = model.state(of: index)
            if actual != expected {
                return "handle \(index) has state \(actual), the model says \(expected)"
            }
        }
        return checkLiveness()
    }

    /// Whether `actual` is `expected` with some optional states left out, cut after `cap` calls.
    ///
    /// A search, not a greedy walk: a received state equal to a skippable one may be the required
    /// state after it (`[0]` against `[0]?, [0]`).
    static func matches(_ actual: [[Int]], _ expected: [TreeModel.Expected], cap: Int?) -> Bool {
        if let cap, actual.count > cap { return false }
        // reachable[j]: the states received so far can be matched by the first j expected ones.
        var reachable = Array(repeating: false, count: expected.count + 1)
        reachable[0] = true
        func skipOptional() {
            for index in expected.indices where reachable[index] && expected[index].optional {
                reachable[index + 1] = true
            }
        }
        skipOptional()
        for state in actual {
            var next = Array(repeating: false, count: expected.count + 1)
            for index in expected.indices where reachable[index] && expected[index].state == state {
                next[index + 1] = true
            }
            reachable = next
            skipOptional()
        }
        if let cap, actual.count == cap { return reachable.contains(true) }
        return reachable[expected.count]
    }
}

/// A model action wrapped in another type, so that a view changes the action type on the way up.
private struct TranslatedAction: Sendable {
    let action: ModelAction
}
