import Canopy

/// Shows a running sync on the console's status line until it ends.
enum SyncProgress {
    /// Follows the sync from its current state to its end: each new status replaces the last on one
    /// line; the end replaces it with the outcome, unless the sync failed. Returns the final state.
    static func follow(_ store: SyncStore, console: Console) async -> SyncState {
        let (finals, continuation) = AsyncStream.makeStream(of: SyncState.self)
        // Runs on the store's queue, one state after the other: every status is shown before the
        // final state is handed over, so nothing is drawn after the outcome.
        let subscription = store.subscribe(removeStateDuplicates: .keyPath(\.1)) { state in
            let sync = state.1
            if sync.run.isInProgress {
                console.showStatus(SyncStatus.line(sync))
            } else {
                continuation.yield(sync)
                continuation.finish()
            }
        }
        var final: SyncState?
        for await state in finals {
            final = state
        }
        subscription.cancel()
        guard let final else { return await store.state.1 }
        if final.run.isFailed {
            // The caller reports the failure as an error.
            console.endStatus()
        } else {
            console.finishStatus(with: SyncStatus.line(final))
        }
        return final
    }
}
