import Canopy
import Dispatch

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The writers of one store tree: when their pending changes are written, in what order, and what a
/// failure does.
///
/// ```
/// reduce ─▶ after-reduce step ─▶ slot.pending ─▶ debounce (tree's clock) ─┐
/// flush() ───────────────────────────────────────────────────────────────┴▶ write round:
///     take every slot's pending batch, leaves first; write them one at a time, off the queue
///     all written ─▶ flush() callers resume
///     one throws   ─▶ it and the batches after it go back under the newer changes; retry after backoff
///     a conflict   ─▶ the ids in conflict are dropped from its batch; the rest goes back, written next
/// ```
///
/// Only one round runs at a time, so batches reach storage in the order their changes were made.
final class PersistenceCoordinator: TreeAttachment, Sendable {
    /// What changes as rounds come and go, confined to `queue`: the after-reduce steps run in reducers,
    /// `flush` and timers are sent there, and a round's end hops back there. `treeWillEnd()`, called on
    /// any thread, only sends work to the queue. The retry timers hold the coordinator weakly: while the
    /// tree lives, the tree holds it; after, `keptUntilWritten` does.
    private struct State {
        /// In write order: deeper stores first, then registration order.
        var slots: [any PersistenceSlot] = []
        /// The drain of each entity store watched, by node and offset; the node is held weakly, so an
        /// entry whose node is gone is never matched again.
        var drains: [(node: Weak, offset: Int, drain: AnyObject)] = []
        var registrations = 0
        var isWriting = false
        /// A `flush()` arrived while a round was running: start another one when it ends.
        var roundRequested = false
        var debounce: ScheduledWork?
        /// The latest time the changes not yet in a round may wait until: the earliest, over those
        /// changes, of when each was drained plus its writer's `maxDelay`.
        var writeBy: TimeInterval?
        var retry: ScheduledWork?
        var requests = 0
        var waiters: [(request: Int, resume: @Sendable (PersistenceError?) -> Void)] = []
        /// Whether the tree ended: writes go on until the pending changes are written or given up.
        var hasEnded = false
        /// Retries left once the tree ended.
        var retriesAfterEnd = 3
        /// Once the tree ended, nothing else holds the coordinator: it holds itself until what was
        /// pending is written or given up.
        var keptUntilWritten: PersistenceCoordinator?
    }

    private let queue: DispatchQueue
    private let scheduler: any DelayScheduler
    private let state: QueueConfined<State>

    init(queue: DispatchQueue, scheduler: any DelayScheduler) {
        self.queue = queue
        self.scheduler = scheduler
        self.state = QueueConfined(State(), queue: queue)
    }

    /// On the queue: the rank of the next writer registered on a store `depth` levels down.
    func nextRank(depth: Int) -> (depth: Int, registration: Int) {
        let registration = withState { state in
            state.registrations += 1
            return state.registrations
        }
        return (depth, registration)
    }

    /// On the queue: the drain of the entity store at `offset` in `node`'s own state, made by `make` (and
    /// installed by the caller) the first time.
    func drain<Drain: AnyObject>(of node: AnyObject, at offset: Int, make: () -> Drain) -> (Drain, isNew: Bool) {
        let drains = withState { state in
            state.drains.removeAll { $0.node.object == nil }
            return state.drains
        }
        if let existing = drains.first(where: { $0.node.object === node && $0.offset == offset })?.drain as? Drain {
            return (existing, false)
        }
        let made = make()
        state.value.drains.append((Weak(node), offset, made))
        return (made, true)
    }

    /// On the queue: adds `slot` in write order.
    func register(_ slot: any PersistenceSlot) {
        let slots = withState { $0.slots }
        let position = slots.firstIndex { other in
            other.rank.depth < slot.rank.depth
                || (other.rank.depth == slot.rank.depth && other.rank.registration > slot.rank.registration)
        }
        state.value.slots.insert(slot, at: position ?? slots.endIndex)
    }

    // MARK: When to write

    /// On the queue: a slot with `options` has new pending changes. Starts or moves the debounce, unless
    /// a round or a retry will take them anyway. The timer is shared by the tree's writers, so it never
    /// moves past the `maxDelay` of any change waiting, whichever writer's options it is moved with.
    func changesArrived(_ options: PersistenceOptions) {
        let now = scheduler.now
        let moved: (delay: TimeInterval, previous: ScheduledWork?)? = withState { state in
            guard !state.isWriting, state.retry == nil else { return nil }
            let deadline = min(state.writeBy ?? .infinity, now + options.maxDelay)
            state.writeBy = deadline
            return (min(options.debounce, max(0, deadline - now)), state.debounce)
        }
        guard let (delay, previous) = moved else { return }
        previous?.cancel()
        state.value.debounce = scheduler.schedule(after: delay, on: queue) { [weak self] in
            self?.writePending()
        }
    }

    /// On the queue: writes everything pending now; `resume` is called on the queue once it is stored
    /// (`nil`) or a write failed.
    func flush(_ resume: @escaping @Sendable (PersistenceError?) -> Void) {
        let isWriting = withState { state in
            state.requests += 1
            state.waiters.append((state.requests, resume))
            state.roundRequested = state.roundRequested || state.isWriting
            return state.isWriting
        }
        if !isWriting {
            writePending()
        }
    }

    func treeWillEnd() {
        queue.async { [self] in
            let isWriting = withState { state in
                state.hasEnded = true
                state.keptUntilWritten = self
                state.roundRequested = state.roundRequested || state.isWriting
                return state.isWriting
            }
            if !isWriting {
                writePending()
            }
        }
    }

    // MARK: A round

    /// On the queue: takes every pending batch and writes them, one at a time, off the queue.
    private func writePending() {
        // A timer cancelled too late to stop it may still call this during a round: the round's end
        // starts the next one.
        let isWriting = withState { state in
            state.roundRequested = state.roundRequested || state.isWriting
            return state.isWriting
        }
        guard !isWriting else { return }
        forgetReleasedStores()
        let (debounce, retry, slots, covered) = withState { state in
            defer {
                state.debounce = nil
                state.retry = nil
                state.writeBy = nil
            }
            return (state.debounce, state.retry, state.slots, state.requests)
        }
        debounce?.cancel()
        retry?.cancel()
        let batches = slots.compactMap { $0.take() }
        guard !batches.isEmpty else {
            resumeWaiters(upTo: covered, with: nil)
            withState { state in
                if state.hasEnded {
                    state.keptUntilWritten = nil
                }
            }
            return
        }
        state.value.isWriting = true
        // A test store follows a round as it follows an effect run, from here until what the round's
        // end leads to is scheduled: it moves its clock only once the round has answered.
        let probe = (scheduler as? any TestHarness)?.effectRunStarted(delayed: false)
        probe?.performing()
        Task.detached { [self] in
            let failure = await EffectRunContext.$probe.withValue(probe) { await Self.write(batches) }
            queue.async { self.roundEnded(batches, failure: failure, covered: covered, probe: probe) }
        }
    }

    /// Off the queue: writes `batches` in order, up to the first that throws.
    private static func write(_ batches: [TakenBatch]) async -> (index: Int, error: any Error)? {
        for (index, batch) in batches.enumerated() {
            do {
                try await batch.write()
            } catch {
                return (index, error)
            }
        }
        return nil
    }

    /// On the queue: what a round's end leads to.
    private func roundEnded(
        _ batches: [TakenBatch],
        failure: (index: Int, error: any Error)?,
        covered: Int,
        probe: (any EffectRunProbe)?
    ) {
        defer { probe?.ended() }
        state.value.isWriting = false
        let written = failure.map { batches[..<$0.index] } ?? batches[...]
        for batch in written {
            batch.slot.failures = 0
            batch.options.onEvent?(.wrote(writer: batch.writer, upserts: batch.upserts, deletions: batch.deletions))
        }
        guard let failure else {
            continueAfterRound(answering: covered, with: nil)
            return
        }
        if let conflict = failure.error as? any ConflictReport {
            conflicted(batches[failure.index...], conflict: conflict, error: failure.error)
            return
        }
        // The failed batch and those after it go back, under what changed meanwhile.
        for batch in batches[failure.index...] {
            batch.restore([])
        }
        let failed = batches[failure.index]
        failed.slot.failures += 1
        let attempt = failed.slot.failures
        let error = PersistenceError(writer: failed.writer, underlying: failure.error, attempt: attempt)
        // Everyone waiting hears of it, including those who asked during the round: the retry is on its
        // way. The writer's listener hears first, so that a caller of `flush()` finds it told.
        let (hasEnded, retriesAfterEnd, requests) = withState { state in
            state.roundRequested = false
            return (state.hasEnded, state.retriesAfterEnd, state.requests)
        }
        if hasEnded, retriesAfterEnd == 0 {
            resumeWaiters(upTo: requests, with: error)
            dropEverything(error: failure.error)
            state.value.keptUntilWritten = nil
            return
        }
        if hasEnded {
            state.value.retriesAfterEnd -= 1
        }
        let delay = failed.options.retryPolicy.delay(beforeRetry: attempt)
        state.value.retry = scheduler.schedule(after: delay, on: queue) { [weak self] in
            self?.writePending()
        }
        failed.options.onEvent?(
            .failed(writer: failed.writer, error: failure.error, attempt: attempt, retryAfter: delay)
        )
        resumeWaiters(upTo: withState { $0.requests }, with: error)
    }

    /// On the queue, after a round that stored what it took or met a conflict: the next round, or the
    /// debounce of what is pending; then the callers of `flush()` up to `request` resume with `error`.
    ///
    /// What comes next is set up before they resume, as the retry is after a failure: a caller that moves
    /// a manual clock as soon as `flush()` returns finds the debounce of the rest scheduled already, and
    /// moves it too. Which callers resume is settled before the next round can take new requests.
    private func continueAfterRound(answering request: Int, with error: PersistenceError?) {
        let answered = takeWaiters(upTo: request)
        startNextRoundOrDebounce()
        for waiter in answered {
            waiter(error)
        }
    }

    /// On the queue, between rounds: the next round if one was asked for meanwhile (or the tree ended),
    /// otherwise the debounce of whatever is pending.
    private func startNextRoundOrDebounce() {
        let (nextRound, slots) = withState { state in
            defer { state.roundRequested = false }
            return (state.roundRequested || state.hasEnded, state.slots)
        }
        if nextRound {
            // After the end, a round follows until nothing is pending (the last one lets go of `self`).
            writePending()
        } else {
            for slot in slots where slot.hasPending {
                changesArrived(slot.options)
            }
        }
    }

    /// On the queue: the first of `batches` met a conflict. Its changes of the ids in conflict are
    /// dropped (storage keeps what someone else stored); the rest goes back, to be written in the next
    /// round without backoff. Not a failure: the writer's failure count stays.
    private func conflicted(_ batches: ArraySlice<TakenBatch>, conflict: any ConflictReport, error: any Error) {
        guard let first = batches.first else { return }
        first.restore(Set(conflict.conflictingIDs))
        for batch in batches.dropFirst() {
            batch.restore([])
        }
        first.options.onEvent?(.conflicted(writer: first.writer, conflict: error))
        continueAfterRound(
            answering: withState { $0.requests },
            with: PersistenceError(writer: first.writer, underlying: error, attempt: 1)
        )
    }

    /// On the queue, between rounds (no batch is out, so none can come back): lets go of the writers of
    /// stores that are gone and have nothing left to write, with their drains.
    private func forgetReleasedStores() {
        state.value.drains.removeAll { $0.node.object == nil }
        state.value.slots.removeAll { $0.isOrphaned && !$0.hasPending }
    }

    private func resumeWaiters(upTo request: Int, with error: PersistenceError?) {
        for waiter in takeWaiters(upTo: request) {
            waiter(error)
        }
    }

    /// The callers of `flush()` up to `request`, taken out of the state, to be resumed by the caller.
    private func takeWaiters(upTo request: Int) -> [@Sendable (PersistenceError?) -> Void] {
        withState { state in
            defer { state.waiters.removeAll { $0.request <= request } }
            return state.waiters.filter { $0.request <= request }.map(\.resume)
        }
    }

    /// On the queue: runs `body` with the coordinator's state, in place (one check of the queue, no
    /// copy). `body` must not call out of the coordinator.
    private func withState<Result>(_ body: (inout State) -> Result) -> Result {
        body(&state.value)
    }

    /// On the queue, once the tree ended and the last retries failed: tells who listens what is lost.
    private func dropEverything(error: any Error) {
        for slot in withState({ $0.slots }) {
            guard let batch = slot.take() else { continue }
            batch.options.onEvent?(
                .dropped(writer: batch.writer, error: error, upserts: batch.upserts, deletions: batch.deletions)
            )
        }
    }
}

/// A weak reference, for lists.
struct Weak {
    weak var object: AnyObject?

    init(_ object: AnyObject) {
        self.object = object
    }
}
