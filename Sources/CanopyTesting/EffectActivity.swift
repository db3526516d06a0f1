import Canopy
import Dispatch

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What the effects of a test store's tree are doing, and the work waiting on its clock: the counts
/// `TestStore` decides from (is anything still busy? what is due next?), and a signal for every change.
///
/// A run is *busy* while its body may still do something without the clock moving: from its start
/// (or the end of its delay) until it ends or its task waits for work on the test clock.
final class EffectActivity: Sendable {
    private enum Phase {
        /// Waiting for its delay on the test clock.
        case delayed
        /// Its body runs; `clockWaits` pieces of work it scheduled on the test clock are pending.
        case running(clockWaits: Int)
    }

    private struct ClockItem {
        var deadline: TimeInterval
        /// The run whose task scheduled the work, if any.
        let run: UInt64?
        /// Whether the work is on the manual clock and counts as its run's wait (``clockWorkArmed(_:deadline:)``).
        var isArmed = false
    }

    private struct Waiter {
        let id: UInt64
        let continuation: CheckedContinuation<Bool, Never>
    }

    private struct Storage {
        var runs: [UInt64: Phase] = [:]
        var clockItems: [UInt64: ClockItem] = [:]
        var nextID: UInt64 = 0
        /// Incremented on every change.
        var generation: UInt64 = 0
        var waiters: [Waiter] = []

        mutating func makeID() -> UInt64 {
            nextID += 1
            return nextID
        }

        mutating func changed() -> [CheckedContinuation<Bool, Never>] {
            generation += 1
            let ready = waiters.map(\.continuation)
            waiters.removeAll()
            return ready
        }
    }

    private let storage = LockedValue(Storage())

    /// The number of effect runs that have not ended.
    var runningCount: Int {
        storage.withLock { $0.runs.count }
    }

    /// The number of effect runs that are busy (see the type's summary).
    var busyCount: Int {
        storage.withLock { storage in
            storage.runs.values.count { phase in
                if case .running(clockWaits: 0) = phase { return true }
                return false
            }
        }
    }

    /// Changes with every event; compare two readings to learn whether anything happened in between.
    var generation: UInt64 {
        storage.withLock { $0.generation }
    }

    /// The earliest deadline of the work pending on the test clock.
    var nextDeadline: TimeInterval? {
        storage.withLock { $0.clockItems.values.map(\.deadline).min() }
    }

    // MARK: Events

    func runStarted(delayed: Bool) -> UInt64 {
        update { storage in
            let id = storage.makeID()
            storage.runs[id] = delayed ? .delayed : .running(clockWaits: 0)
            return id
        }
    }

    func runPerforming(_ run: UInt64) {
        update { storage in
            if case .delayed = storage.runs[run] {
                storage.runs[run] = .running(clockWaits: 0)
            }
        }
    }

    func runEnded(_ run: UInt64) {
        update { storage in
            storage.runs[run] = nil
        }
    }

    /// Work is about to be scheduled on the test clock, by the task of `run` if it is not `nil`: the
    /// first of two steps, before the manual clock has it. Until ``clockWorkArmed(_:deadline:)``, the
    /// run stays busy, so no one moves the clock past work the manual clock does not have yet.
    func clockWorkScheduled(deadline: TimeInterval, by run: UInt64?) -> UInt64 {
        update { storage in
            let id = storage.makeID()
            storage.clockItems[id] = ClockItem(deadline: deadline, run: run)
            return id
        }
    }

    /// The work `id` is on the manual clock, due at `deadline` or later: its run now waits for the clock.
    /// Does nothing when the work already ran or was cancelled (the clock may move in between).
    func clockWorkArmed(_ id: UInt64, deadline: TimeInterval) {
        update { storage in
            guard var item = storage.clockItems[id], !item.isArmed else { return }
            item.isArmed = true
            item.deadline = max(item.deadline, deadline)
            storage.clockItems[id] = item
            if let run = item.run, case .running(let waits) = storage.runs[run] {
                storage.runs[run] = .running(clockWaits: waits + 1)
            }
        }
    }

    /// Work scheduled on the test clock ran or was cancelled. Idempotent.
    func clockWorkFinished(_ id: UInt64) {
        update { storage in
            guard let item = storage.clockItems.removeValue(forKey: id), item.isArmed else { return }
            if let run = item.run, case .running(let waits) = storage.runs[run] {
                storage.runs[run] = .running(clockWaits: max(waits - 1, 0))
            }
        }
    }

    private func update<Result>(_ body: (inout Storage) -> Result) -> Result {
        let (result, ready) = storage.withLock { storage in
            (body(&storage), storage.changed())
        }
        for continuation in ready {
            continuation.resume(returning: true)
        }
        return result
    }

    // MARK: Waiting

    /// Suspends until ``generation`` differs from `generation` (returns `true`), or until `timeout`
    /// of real time has passed (returns `false`).
    func waitForChange(from generation: UInt64, timeout: Duration) async -> Bool {
        await withCheckedContinuation { continuation in
            let id = storage.withLock { storage -> UInt64? in
                guard storage.generation == generation else { return nil }
                let id = storage.makeID()
                storage.waiters.append(Waiter(id: id, continuation: continuation))
                return id
            }
            guard let id else {
                continuation.resume(returning: true)
                return
            }
            let seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) * 1e-18
            DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { [weak self] in
                self?.expire(id)
            }
        }
    }

    private func expire(_ id: UInt64) {
        let expired = storage.withLock { storage -> CheckedContinuation<Bool, Never>? in
            guard let index = storage.waiters.firstIndex(where: { $0.id == id }) else { return nil }
            return storage.waiters.remove(at: index).continuation
        }
        expired?.resume(returning: false)
    }
}

/// Follows one effect run for ``EffectActivity``.
struct EffectRunTracker: EffectRunProbe {
    let activity: EffectActivity
    let id: UInt64

    func performing() {
        activity.runPerforming(id)
    }

    func ended() {
        activity.runEnded(id)
    }
}
