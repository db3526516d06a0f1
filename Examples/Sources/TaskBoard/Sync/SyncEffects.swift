import Canopy

/// The Sync feature's effects: one remote call per attempt of the sync, and periodic pushes.
enum SyncEffects {
    static func attach(to store: SyncStore, environment: Environment) {
        attachSync(to: store, environment: environment)
        attachAutoSync(to: store, environment: environment)
    }

    /// `effect(_:on:create:)` on `run`: each attempt (the first, and each retry after its backoff delay,
    /// which the store waits out) pushes or pulls once. A failure goes back to the reducer, which retries
    /// or gives up; `cancel` cancels the running call's task.
    private static func attachSync(to store: SyncStore, environment: Environment) {
        let remote = environment.remote
        let now = environment.now
        store.effect(\.1.run, on: environment.effectQueue) { state, dispatch in
            guard let direction = state.1.direction, let attempt = state.1.run.currentAttempt else {
                return .postpone
            }
            let board = state.0.1.snapshot
            return Effect {
                dispatch(.sync(.attemptStarted(attempt: attempt)))
                switch direction {
                case .push:
                    let revision = try await remote.push(board)
                    dispatch(.sync(.pushed(taskCount: board.tasks.count, remoteRevision: revision)))
                case .pull:
                    dispatch(.sync(.pulled(try await remote.pull())))
                }
            } catch: { error in
                dispatch(.sync(.attemptFailed(reason: "\(error)", at: now())))
            }
        }
    }

    /// `effect(toggle:on:create:)` on `autoSync`: while it is on, a push starts every
    /// `autoSyncInterval` seconds; turning it off cancels the timer.
    private static func attachAutoSync(to store: SyncStore, environment: Environment) {
        let sleeper = environment.sleeper
        store.effect(toggle: \.1.autoSync, on: environment.effectQueue) { state, dispatch in
            let interval = state.1.settings.autoSyncInterval
            return Effect {
                do {
                    while true {
                        try await sleeper.sleep(for: interval)
                        dispatch(.sync(.autoSyncTick))
                    }
                } catch {
                    // Turned off.
                }
            }
        }
    }
}
