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
// Safety: Sendable by hand: its `var`s are confined to `queue` (note below).
final class PersistenceCoordinator: TreeAttachment, @unchecked Sendable {
    // Safety: every `var` is read and written only on `queue`: the after-reduce steps run in reducers,
    // `flush` and timers are sent there, and a round's end hops back there. `treeWillEnd()`, called on
    // any thread, only sends work to the queue. The retry timers hold the coordinator weakly: while the
    // tree lives, the tree holds it; after, `keptUntilWritten` does.
    private let queue: DispatchQueue
    private let scheduler: any DelayScheduler
    /// In write order: deeper stores first, then registration order.
    private var slots: [any PersistenceSlot] = []
    /// The drain of each entity store watched, by node and offset; the node is held weakly, so an entry
    /// whose node is gone is never matched again.
    private var drains: [(node: Weak, offset: Int, drain: AnyObject)] = []
    private var registrations = 0
    private var isWriting = false
    /// A `flush()` arrived while a round was running: start another one when it ends.
    private var roundRequested = false
    private var debounce: ScheduledWork?
    /// The latest time the changes not yet in a round may wait until: the earliest, over those changes,
    /// of when each was drained plus its writer's `maxDelay`.
    private var writeBy: TimeInterval?
    private var retry: ScheduledWork?
    private var requests = 0
    private var waiters: [(request: Int, resume: @Sendable (PersistenceError?) -> Void)] = []
    /// Whether the tree ended: writes go on until the pending changes are written or given up.
    private var hasEnded = false
    /// Retries left once the tree ended.
    private var retriesAfterEnd = 3
    /// Once the tree ended, nothing else holds the coordinator: it holds itself until what was pending is
    /// written or given up.
    private var keptUntilWritten: PersistenceCoordinator?

    init(queue: DispatchQueue, scheduler: any DelayScheduler) {
        self.queue = queue
        self.scheduler = scheduler
    }

    /// On the queue: the rank of the next writer registered on a store `depth` levels down.
    func nextRank(depth: Int) -> (depth: Int, registration: Int) {
        registrations += 1
        return (depth, registrations)
    }

    /// On the queue: the drain of the entity store at `offset` in `node`'s own state, made by `make` (and
    /// installed by the caller) the first time.
    func drain<Drain: AnyObject>(of node: AnyObject, at offset: Int, make: () -> Drain) -> (Drain, isNew: Bool) {
        drains.removeAll { $0.node.object == nil }
        if let existing = drains.first(where: { $0.node.object === node && $0.offset == offset })?.drain as? Drain {
            return (existing, false)
        }
        let made = make()
        drains.append((Weak(node), offset, made))
        return (made, true)
    }

    /// On the queue: adds `slot` in write order.
    func register(_ slot: any PersistenceSlot) {
        let position = slots.firstIndex { other in
            other.rank.depth < slot.rank.depth
                || (other.rank.depth == slot.rank.depth && other.rank.registration > slot.rank.registration)
        }
        slots.insert(slot, at: position ?? slots.endIndex)
    }

    // MARK: When to write

    /// On the queue: a slot with `options` has new pending changes. Starts or moves the debounce, unless
    /// a round or a retry will take them anyway. The timer is shared by the tree's writers, so it never
    /// moves past the `maxDelay` of any change waiting, whichever writer's options it is moved with.
    func changesArrived(_ options: PersistenceOptions) {
        guard !isWriting, retry == nil else { return }
        let now = scheduler.now
        let deadline = min(writeBy ?? .infinity, now + options.maxDelay)
        writeBy = deadline
        let delay = min(options.debounce, max(0, deadline - now))
        debounce?.cancel()
        debounce = scheduler.schedule(after: delay, on: queue) { [weak self] in
            self?.writePending()
        }
    }

    /// On the queue: writes everything pending now; `resume` is called on the queue once it is stored
    /// (`nil`) or a write failed.
    func flush(_ resume: @escaping @Sendable (PersistenceError?) -> Void) {
        requests += 1
        waiters.append((requests, resume))
        if isWriting {
            roundRequested = true
        } else {
            writePending()
        }
    }

    func treeWillEnd() {
        queue.async { [self] in
            hasEnded = true
            keptUntilWritten = self
            if isWriting {
                roundRequested = true
            } else {
                writePending()
            }
        }
    }

    // MARK: A round

    /// On the queue: takes every pending batch and writes them, one at a time, off the queue.
    private func writePending() {
        // A timer cancelled too late to stop it may still call this during a round: the round's end
        // starts the next one.
        guard !isWriting else {
            roundRequested = true
            return
        }
        forgetReleasedStores()
        debounce?.cancel()
        debounce = nil
        retry?.cancel()
        retry = nil
        writeBy = nil
        let batches = slots.compactMap { $0.take() }
        let covered = requests
        guard !batches.isEmpty else {
            resumeWaiters(upTo: covered, with: nil)
            if hasEnded {
                keptUntilWritten = nil
            }
            return
        }
        isWriting = true
        Task.detached { [self] in
            var failure: (index: Int, error: any Error)?
            for (index, batch) in batches.enumerated() {
                do {
                    try await batch.write()
                } catch {
                    failure = (index, error)
                    break
                }
            }
            let result = failure
            queue.async { self.roundEnded(batches, failure: result, covered: covered) }
        }
    }

    /// On the queue: what a round's end leads to.
    private func roundEnded(_ batches: [TakenBatch], failure: (index: Int, error: any Error)?, covered: Int) {
        isWriting = false
        let written = failure.map { batches[..<$0.index] } ?? batches[...]
        for batch in written {
            batch.slot.failures = 0
            batch.options.onEvent?(.wrote(writer: batch.writer, upserts: batch.upserts, deletions: batch.deletions))
        }
        guard let failure else {
            resumeWaiters(upTo: covered, with: nil)
            continueAfterRound()
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
        roundRequested = false
        if hasEnded, retriesAfterEnd == 0 {
            resumeWaiters(upTo: requests, with: error)
            dropEverything(error: failure.error)
            keptUntilWritten = nil
            return
        }
        if hasEnded {
            retriesAfterEnd -= 1
        }
        let delay = failed.options.retryPolicy.delay(beforeRetry: attempt)
        retry = scheduler.schedule(after: delay, on: queue) { [weak self] in
            self?.writePending()
        }
        failed.options.onEvent?(
            .failed(writer: failed.writer, error: failure.error, attempt: attempt, retryAfter: delay)
        )
        resumeWaiters(upTo: requests, with: error)
    }

    /// On the queue, after a round that stored what it took or met a conflict: the next round, or the
    /// debounce of what is pending.
    private func continueAfterRound() {
        if roundRequested || hasEnded {
            // After the end, a round follows until nothing is pending (the last one lets go of `self`).
            roundRequested = false
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
        resumeWaiters(upTo: requests, with: PersistenceError(writer: first.writer, underlying: error, attempt: 1))
        continueAfterRound()
    }

    /// On the queue, between rounds (no batch is out, so none can come back): lets go of the writers of
    /// stores that are gone and have nothing left to write, with their drains.
    private func forgetReleasedStores() {
        drains.removeAll { $0.node.object == nil }
        slots.removeAll { $0.isOrphaned && !$0.hasPending }
    }

    private func resumeWaiters(upTo request: Int, with error: PersistenceError?) {
        let ready = waiters.filter { $0.request <= request }
        waiters.removeAll { $0.request <= request }
        for waiter in ready {
            waiter.resume(error)
        }
    }

    /// On the queue, once the tree ended and the last retries failed: tells who listens what is lost.
    private func dropEverything(error: any Error) {
        for slot in slots {
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
