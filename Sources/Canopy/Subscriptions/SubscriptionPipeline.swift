import Dispatch

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One subscription's path from a state change to its consumer: dedup → debounce → props → delivery.
///
/// ```
/// store queue:         dedup ──▶ DebounceStateMachine ──▶ (timer on the store queue, via the scheduler)
///                                      │ deliver(state), numbered
/// presentation queue:                  ▼ props(state, store)
/// delivery queue:                      ▼ observe(props), unless a newer delivery went first
/// ```
///
/// The node holds the pipeline (through its observer); the pipeline holds the store only through a
/// weak handle, so a subscription never keeps its store alive and never forms a cycle with it. A
/// subscription ends when its token is cancelled or released, when its owner object (if any) is
/// released, or when the store goes; whichever comes first, the node drops the observer and
/// ``Registration`` ends the pipeline.
final class SubscriptionPipeline<State: Sendable, Action: Sendable, Props>: Sendable {
    /// What the pipeline keeps on the store's queue.
    ///
    /// Each method is one access to it: in code generic over the state, each access looks the storage's
    /// type up.
    private struct Storage {
        var debouncer: DebounceStateMachine
        /// The state the debouncer holds back, kept here by the debouncer's rule
        /// (``DebounceStateMachine``).
        var pending: State?
        var lastSequence: UInt64 = 0

        init(debouncing policy: DebouncePolicy) {
            debouncer = DebounceStateMachine(policy: policy)
        }

        /// The debouncer's decision for `state`, which waits, in place of any before it, unless it is
        /// delivered now.
        mutating func receive(_ state: State, now: TimeInterval) -> DebounceStateMachine.Decision {
            let decision = debouncer.receive(now: now)
            pending = decision.delivers ? nil : state
            return decision
        }

        /// The debouncer's decision when its timer fires, with the pending state if it is delivered now.
        mutating func timerFired(now: TimeInterval) -> (DebounceStateMachine.Decision, delivering: State?) {
            let decision = debouncer.timerFired(now: now)
            return (decision, decision.delivers ? pending.take() : nil)
        }

        /// The number of the next delivery.
        mutating func nextSequence() -> UInt64 {
            lastSequence += 1
            return lastSequence
        }
    }

    /// What every call of the observer passes through, and what keeps the debounce timer; the token
    /// cancels it, and the first cancel stops the timer and removes the observer from its node.
    private let gate: DeliveryGate
    private let store: AnyStore<State, Action>
    private let scheduler: any DelayScheduler
    private let policy: DebouncePolicy
    private let storage: QueueConfined<Storage>
    private let presentationQueue: DispatchQueue?
    /// Where the props are computed: the presentation queue, or the store's queue.
    private let propsQueue: DispatchQueue
    private let makeProps: @Sendable (State, AnyStore<State, Action>) -> Props
    private let delivery: PropsDelivery<Props>
    private let owner: LifetimeWatch?
    private let sequencer = DeliverySequencer()

    /// Creates a pipeline and subscribes it to `handle`; it receives the node's current state first.
    ///
    /// - Parameters:
    ///   - handle: The store to observe. It is not retained.
    ///   - configuration: Dedup, debounce, presentation queue and delivery.
    ///   - props: Turns a state into props; it is given a handle that does not retain the store.
    ///   - observer: Where the props go, delivered as `configuration` says.
    ///   - owner: An object whose release ends the subscription, if any.
    init(
        handle: any StoreHandle<State, Action>,
        configuration: SubscriptionConfiguration<State>,
        props: @escaping @Sendable (State, AnyStore<State, Action>) -> Props,
        observer: PropsObserver<Props>,
        owner: AnyObject? = nil
    ) {
        // The node finds the pipeline's observer through this gate, which keeps its slot, and the
        // compiled dedup check calls `accept` through it. Nothing closes it: the delivery gate stops the
        // calls, and asks for the observer's removal through it.
        let observerGate = handle.callGate()
        self.gate = DeliveryGate(observerGate: observerGate)
        self.store = AnyStore(handle: handle.weakHandle())
        self.scheduler = handle.scheduler
        self.policy = configuration.debounce
        self.storage = QueueConfined(
            Storage(debouncing: configuration.debounce),
            queue: handle.queue
        )
        self.presentationQueue = configuration.presentationQueue
        self.propsQueue = configuration.presentationQueue ?? handle.queue
        self.makeProps = props
        self.delivery = PropsDelivery(configuration.delivery, to: observer, storeQueue: handle.queue)
        self.owner = owner.map(LifetimeWatch.init)
        let registration = Registration(self)
        // Dedup sits between `receive`'s checks and `accept`, compiled for the state's type where the
        // equating was made; a duplicate goes no further.
        let check: @Sendable (State) -> ObserverStatus
        if let equating = configuration.removeStateDuplicates {
            // A compiled check calls `accept` through the observer's gate, which nothing closes: the token
            // holds `gate`, which `receive` reads before the check runs. (An optional gate in the check
            // would cost every subscription's check a retain and a release of it around each handler's
            // call.)
            if let compiled = equating.check(
                gate: observerGate,
                handler: { state in _ = registration.pipeline.accept(state) }
            ) {
                check = compiled
            } else {
                check = equating.predicateCheck { state in registration.pipeline.accept(state) }
            }
        } else {
            check = { state in registration.pipeline.accept(state) }
        }
        handle.subscribe(through: observerGate) { state in registration.pipeline.receive(state, then: check) }
    }

    /// The context of the observer the node keeps: it lives exactly as long as the node keeps the
    /// observer, so its release tells the pipeline that the subscription is over, whatever ended it (the
    /// store went, the owner went, the token was cancelled). A pending timer then lets go at once.
    private final class Registration: Sendable {
        let pipeline: SubscriptionPipeline

        init(_ pipeline: SubscriptionPipeline) {
            self.pipeline = pipeline
        }

        deinit {
            pipeline.end()
        }
    }

    deinit {
        gate.stopTimer()
    }

    /// A token whose cancellation (or release) ends the subscription at once.
    func makeSubscription() -> Subscription {
        Subscription(gate: gate)
    }

    /// Whether deliveries may still happen.
    private var isLive: Bool {
        !gate.isClosed && (owner?.isAlive ?? true)
    }

    // MARK: On the store's queue

    /// Passes `state` on to `check` (dedup, then ``accept(_:)``) while the subscription lives.
    private func receive(_ state: State, then check: @Sendable (State) -> ObserverStatus) -> ObserverStatus {
        guard !gate.isClosed else { return .dead }
        // Checked before dedup: a released owner behind a filter that rejects everything (`.alwaysEqual`,
        // a key that never changes) must still end its subscription on the next state.
        guard owner?.isAlive ?? true else {
            end()
            return .dead
        }
        return check(state)
    }

    /// The rest of `receive(_:then:)`, for a state that passed dedup. Kept out of line so that the
    /// duplicate path does not set up what this part needs.
    @inline(never)
    private func accept(_ state: State) -> ObserverStatus {
        let now = policy.needsClock ? scheduler.now : 0
        perform(storage.value.receive(state, now: now), delivering: state)
        return .active
    }

    private func timerFired() {
        gate.forgetFiredTimer()
        guard isLive else { return }
        let (decision, pending) = storage.value.timerFired(now: scheduler.now)
        perform(decision, delivering: pending)
    }

    /// Does what the debouncer decided; `state` is the state to deliver, if it decided to deliver one.
    private func perform(_ decision: DebounceStateMachine.Decision, delivering state: State?) {
        switch decision {
        case .wait:
            break
        case .deliver:
            if let state { present(state) }
        case .startTimer(let delay):
            startTimer(after: delay)
        case .deliverAndStartTimer(let delay):
            if let state { present(state) }
            startTimer(after: delay)
        }
    }

    private func startTimer(after delay: TimeInterval) {
        // Holds the pipeline strongly, so that a timer that fires finds it; the timer is cancelled when
        // the subscription ends, and otherwise holds the pipeline (never the store) for one interval at
        // most.
        let started = scheduler.schedule(after: delay, on: storage.queue) { self.timerFired() }
        gate.replaceTimer(with: started)
    }

    /// Stops everything still to come, from any thread.
    private func end() {
        gate.end()
    }

    /// Numbers the delivery, then computes its props on the presentation queue.
    private func present(_ state: State) {
        let sequence = storage.value.nextSequence()
        if let presentationQueue {
            presentationQueue.async { self.computeAndDeliver(state, sequence: sequence) }
        } else {
            computeAndDeliver(state, sequence: sequence)
        }
    }

    // MARK: On the presentation queue, then the delivery queue

    private func computeAndDeliver(_ state: State, sequence: UInt64) {
        // The props closure is the subscriber's code as much as the observer is: it runs inside the gate,
        // so a `cancel()` from another thread waits for it to return and none starts afterwards (SPEC 2.5).
        var computed: Props?
        let ran = gate.withCall {
            guard isLive else { return }
            computed = makeProps(state, store)
        }
        guard ran, let props = computed else { return }
        switch delivery {
        case .mainActor(let observe):
            let transfer = Transfer(props)
            let call = {
                let props = transfer.take()
                MainActor.assumeIsolated { observe(props) }
            }
            if propsQueue === DispatchQueue.main {
                deliver(sequence, call)
            } else {
                DispatchQueue.main.async { self.deliver(sequence, call) }
            }
        case .queue(let queue, let observe):
            if propsQueue === queue {
                deliver(sequence) { observe(props) }
            } else {
                let transfer = Transfer(props)
                queue.async {
                    self.deliver(sequence) { observe(transfer.take()) }
                }
            }
        }
    }

    /// Calls the observer through `call`, inside the gate, unless the subscription is over or a newer
    /// delivery went first.
    private func deliver(_ sequence: UInt64, _ call: () -> Void) {
        _ = gate.withCall {
            guard owner?.isAlive ?? true, sequencer.admit(sequence) else { return }
            call()
        }
    }
}
