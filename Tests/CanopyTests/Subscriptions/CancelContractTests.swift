import CanopyTestSupport
import Dispatch
import Foundation  // Thread
import Testing

@testable import Canopy

/// SPEC 2.5: once `cancel()` returns (from any thread but the handler's own), the handler is not running
/// and is never called again, for every form of subscription. The raw handler's cases are in
/// `SubscriptionTests`; these are the forms whose handler runs off the store's queue.
@Suite(.timeLimit(.minutes(1))) struct CancelContractTests {
    /// The props subscriptions whose handler runs on a queue of the caller's.
    enum Form: String, CaseIterable, CustomTestStringConvertible {
        /// Props on the shared presentation queue, then a hop to the delivery queue.
        case hopToDeliveryQueue
        /// Props computed and delivered on the same queue.
        case deliveredWherePropsAreComputed
        /// Delivered on a concurrent queue.
        case concurrentDeliveryQueue

        var testDescription: String { rawValue }

        func configuration(delivery: DispatchQueue) -> SubscriptionConfiguration<Int> {
            switch self {
            case .hopToDeliveryQueue, .concurrentDeliveryQueue:
                .queue(delivery, debounce: .immediate)
            case .deliveredWherePropsAreComputed:
                .queue(delivery, debounce: .immediate, presentationQueue: delivery)
            }
        }

        func makeDeliveryQueue() -> DispatchQueue {
            switch self {
            case .concurrentDeliveryQueue: DispatchQueue(label: "delivery", attributes: .concurrent)
            default: DispatchQueue(label: "delivery")
            }
        }
    }

    /// The subscriber's closure a test holds while it cancels: the handler, or the props closure, which
    /// is the subscriber's code too.
    enum HeldClosure: String, CaseIterable, CustomTestStringConvertible {
        case handler
        case props

        var testDescription: String { rawValue }
    }

    @Test(arguments: Form.allCases, HeldClosure.allCases)
    func cancelFromAnotherThreadWaitsOutTheCallInProgress(form: Form, held: HeldClosure) async {
        let store = StateStore<Int, Int>(0) { state, action in state += action }
        let events = StateRecorder<String>()
        let entered = StateRecorder<Int>()
        let release = Gate()
        // Holds the call for state 1 until the test opens `release`.
        let hold: @Sendable (Int) -> Void = { state in
            guard state == 1 else { return }
            entered.record(state)
            release.pass()
            events.record("\(held.rawValue) returned")
        }
        let subscription = store.subscribe(
            form.configuration(delivery: form.makeDeliveryQueue()),
            props: { state, _ in
                if held == .props { hold(state) }
                return state
            },
            observe: { props in
                if held == .handler { hold(props) }
            }
        )
        store.dispatch(1)
        _ = await entered.waitFor(count: 1)  // the call is running, held by the gate
        let cancelling = StateRecorder<Int>()
        Thread {
            cancelling.record(0)
            subscription.cancel()
            events.record("cancel returned")
        }.start()
        _ = await cancelling.waitFor(count: 1)
        // The canceller marks the subscription first: wait for the mark, then give a `cancel()` that
        // does not wait a few turns to return (no clock; a cancel that does not wait returns right
        // after the mark). One that waits never returns before the held call does, which the order of
        // the events below checks whatever the turns.
        await waitUntil("the cancel's mark") { subscription.isCancelled }
        var turns = 0
        while events.values.isEmpty, turns < 100 {
            await Task.yield()
            turns += 1
        }
        #expect(events.values.isEmpty, "cancel() returned while the \(held.rawValue) was running")
        release.open()
        #expect(await events.waitFor(count: 2) == ["\(held.rawValue) returned", "cancel returned"])
        await store.send(1)
        #expect(entered.values == [1])
    }

    @Test(arguments: Form.allCases)
    func aDeliveryQueuedBeforeTheCancelNeverRuns(form: Form) async {
        let store = StateStore<Int, Int>(0) { state, action in state += action }
        let delivery = form.makeDeliveryQueue()
        let recorder = StateRecorder<Int>()
        let subscription = store.subscribe(
            form.configuration(delivery: delivery),
            props: { state, _ in state },
            observe: { recorder.record($0) }
        )
        #expect(await recorder.waitFor(count: 1) == [0])
        let busy = Gate()
        delivery.async(flags: .barrier) { busy.pass() }
        await store.send(1)
        // The props for 1 are computed and their delivery waits behind the barrier.
        await settle(.sharedPresentationQueue)
        subscription.cancel()
        busy.open()
        await settle(delivery)
        await store.send(1)
        await settle(.sharedPresentationQueue)
        await settle(delivery)
        #expect(recorder.values == [0])
    }

    @Test func cancelFromInsideTheDeliveryReturnsAndStopsLaterDeliveries() async {
        let store = StateStore<Int, Int>(0) { state, action in state += action }
        let recorder = StateRecorder<Int>()
        let holder = LockedValue<Subscription?>(nil)
        let delivery = DispatchQueue(label: "delivery")
        let subscription = store.subscribe(
            .queue(delivery, debounce: .immediate),
            props: { state, _ in state },
            observe: { props in
                recorder.record(props)
                if props == 2 {
                    holder.withLock { $0 }?.cancel()  // re-entrant: must not deadlock
                    recorder.record(-1)
                }
            }
        )
        holder.withLock { $0 = subscription }
        for _ in 0..<2 { await store.send(1) }
        #expect(await recorder.waitFor(count: 4) == [0, 1, 2, -1])
        for _ in 0..<2 { await store.send(1) }
        await settle(.sharedPresentationQueue)
        await settle(delivery)
        #expect(recorder.values == [0, 1, 2, -1])
        #expect(subscription.isCancelled)
        withExtendedLifetime(store) {}
    }

    /// Many props subscriptions made and cancelled from two threads while two others dispatch: no call
    /// of a props closure or a handler may begin after its `cancel()` returned, or still run when it
    /// returns.
    ///
    /// Bounded on every side, since the suite runs in parallel: a fixed number of dispatches, and a
    /// presentation queue of its own (a flood of props on the shared one would hold up other suites).
    @Test func propsSubscriptionsCancelledUnderLoadAreNeverCalledLate() async {
        let store = StateStore<Int, Int>(0) { state, action in state += action }
        let presentation = DispatchQueue(label: "presentation")
        let delivery = DispatchQueue(label: "delivery", attributes: .concurrent)
        let lateCalls = LockedValue(0)
        let runningAtReturn = LockedValue(0)
        let done = StateRecorder<Int>()
        for producer in 0..<2 {
            Thread {
                for _ in 0..<10_000 { store.dispatch(1) }
                done.record(producer)
            }.start()
        }
        for canceller in 0..<2 {
            Thread {
                for _ in 0..<1_000 {
                    // Per subscription: whether its cancel() returned, and how many calls are running.
                    let calls = LockedValue((cancelled: false, running: 0))
                    // A call of the props closure or of the handler: counted while it runs, and late if it
                    // began after cancel() returned.
                    let call: @Sendable () -> Void = {
                        let late = calls.withLock { calls in
                            calls.running += 1
                            return calls.cancelled
                        }
                        if late { lateCalls.withLock { $0 += 1 } }
                        calls.withLock { $0.running -= 1 }
                    }
                    let subscription = store.subscribe(
                        .queue(delivery, debounce: .immediate, presentationQueue: presentation),
                        props: { state, _ in
                            call()
                            return state
                        },
                        observe: { _ in call() }
                    )
                    subscription.cancel()
                    let running = calls.withLock { calls in
                        calls.cancelled = true
                        return calls.running
                    }
                    if running > 0 { runningAtReturn.withLock { $0 += 1 } }
                }
                done.record(2 + canceller)
            }.start()
        }
        _ = await done.waitFor(count: 4)
        #expect(await store.send(0) == 20_000)
        await settle(presentation)
        await settle(delivery)
        #expect(lateCalls.withLock { $0 } == 0, "props or handler calls began after cancel() returned")
        #expect(runningAtReturn.withLock { $0 } == 0, "props or handlers were running when cancel() returned")
    }
}
