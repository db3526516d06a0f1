import Dispatch

extension ActionLog {
    /// Sends every recorded action to the store it was recorded for, in the recorded order, each once
    /// the one before it was handled, and returns when the last one was handled.
    ///
    /// Build the tree to replay into the way the app builds it, so each store gets the same
    /// ``StoreID``, and give the player each store the log names. Before sending anything the player
    /// checks that every entry names one of `targets`, and throws
    /// ``ActionLogError/unknownStore(line:store:)`` for the first that does not.
    ///
    /// The log holds the actions effects and middleware sent, as they reached the reducers, so
    /// work that sends actions must not run again during a replay: build the tree with its effects off
    /// (and without middleware that dispatches, starts work or transforms actions). Docs/ActionLog.md
    /// shows how.
    ///
    /// ```swift
    /// let log = try ActionLog<BoardAction>(contentsOf: logURL, appVersion: "2.1")
    /// let board = makeBoard(effects: .off)
    /// try await log.replay(into: [ReplayTarget(board.root), ReplayTarget(board.tasks)])
    /// ```
    ///
    /// Cancelling the calling task stops the replay before the next action.
    ///
    /// - Parameters:
    ///   - targets: The stores of the freshly built tree; entries go to the target with their ID.
    ///   - timing: ``ReplayTiming/immediate`` (the default), or the recorded gaps on a clock.
    /// - Returns: How many actions were sent, and which of them the tree did not reduce.
    /// - Throws: ``ActionLogError/unknownStore(line:store:)`` before sending anything.
    @discardableResult
    public func replay(
        into targets: [ReplayTarget<Action>],
        timing: ReplayTiming = .immediate
    ) async throws(ActionLogError) -> ReplayReport {
        var byID: [StoreID: ReplayTarget<Action>] = [:]
        for target in targets where byID[target.storeID] == nil {
            byID[target.storeID] = target
        }
        for entry in entries where byID[entry.store] == nil {
            throw .unknownStore(line: entry.line, store: entry.store)
        }
        var start: (clock: Double, log: Double)?
        var replayed = 0
        var notReduced: [Int] = []
        var wasCancelled = false
        for entry in entries {
            if case .recorded(let clock) = timing {
                let origin = start ?? (clock.now, entry.time)
                start = origin
                await Self.wait(on: clock, until: origin.clock + (entry.time - origin.log))
            }
            if Task.isCancelled {
                wasCancelled = true
                break
            }
            if await !byID[entry.store]!.send(entry.action) {
                notReduced.append(entry.line)
            }
            replayed += 1
        }
        return ReplayReport(
            replayed: replayed,
            notReduced: notReduced,
            truncation: truncation,
            wasCancelled: wasCancelled
        )
    }

    /// Returns once `clock` reads `deadline` or later, or the task is cancelled.
    private static func wait(on clock: any DelayScheduler, until deadline: Double) async {
        let delay = deadline - clock.now
        guard delay > 0 else { return }
        let resumed = LockedValue<CheckedContinuation<Void, Never>?>(nil)
        let fire: @Sendable () -> Void = { resumed.exchange(nil)?.resume() }
        var work: ScheduledWork?
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                resumed.withLock { $0 = continuation }
                work = clock.schedule(after: delay, on: replayQueue, fire)
                if Task.isCancelled { fire() }
            }
        } onCancel: {
            fire()
        }
        work?.cancel()
    }
}

/// Where a replay's waits on the tree's clock resume.
private let replayQueue = DispatchQueue(label: "canopy.action-log.replay")
