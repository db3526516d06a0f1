import Canopy

#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

extension TestStore {
    /// Moves the test clock forward by `interval` seconds, running each piece of work that falls due,
    /// and lets the effects it wakes run until they wait for the clock again.
    ///
    /// Work due at different times runs in deadline order, with the effects settled in between, so an
    /// effect that sleeps twice within `interval` wakes up twice.
    ///
    /// ```swift
    /// await store.send(.setQuery("milk")) { ... }
    /// await store.advance(by: 0.1)  // half the debounce: nothing happens yet
    /// ```
    ///
    /// - Parameter interval: Seconds to move forward; zero or more.
    public func advance(by interval: TimeInterval) async {
        precondition(interval >= 0, "TestStore.advance(by:) needs a non-negative interval, got \(interval)")
        let target = clock.now + interval
        await settle()
        while let next = clock.activity.nextDeadline, next <= target {
            clock.advance(to: next)
            await settle()
        }
        clock.advance(to: target)
        await settle()
    }

    /// Waits until the effects are idle, then fails if actions received from effects were not asserted
    /// or effects are still running (with ``Exhaustivity/on``).
    ///
    /// It does not move the clock: an effect that waits for a delay is still running. Call it at the end
    /// of each test; a store released without it checks the same, without waiting.
    ///
    /// - Parameters:
    ///   - fileID: The call site, where failures point (leave the default).
    ///   - filePath: See `fileID`.
    ///   - line: See `fileID`.
    ///   - column: See `fileID`.
    public func finish(
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) async {
        await settle()
        markFinished()
        reportLeftovers(at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
    }

    /// Waits until the tree is quiet: no effect is busy (each has ended, waits for its delay, or its task
    /// waits for the test clock), and every action sent so far has been reduced and logged.
    ///
    /// Bounded by ``realTimeLimit`` of real time, so an effect that waits for something else cannot
    /// hang the test; once a wait gave up, the next ones give up at once until something happens.
    ///
    /// - Returns: Whether the tree became quiet in time.
    @discardableResult
    func settle() async -> Bool {
        let activity = clock.activity
        let limit = ContinuousClock.now + realTimeLimit
        while true {
            let generation = activity.generation
            if activity.busyCount == 0 {
                // Actions an effect sent come before its end: once no effect is busy, a pass over the
                // queue reduces them all, unless the pass itself started effects.
                await flush()
                if activity.generation == generation { return true }
                continue
            }
            // Nothing happened since an earlier wait gave up: waiting again would only cost time.
            if gaveUp(at: generation) {
                await flush()
                return false
            }
            let left = ContinuousClock.now.duration(to: limit)
            guard left > .zero, await activity.waitForChange(from: generation, timeout: left) else {
                givingUp(at: generation)
                await flush()
                return false
            }
        }
    }

    /// Waits until everything sent to the tree before this call has been reduced, and records it.
    func flush() async {
        await withCheckedContinuation { continuation in
            enqueue { [history] in
                history.complete()
                continuation.resume()
            }
        }
    }
}
