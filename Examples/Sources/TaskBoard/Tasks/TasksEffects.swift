import Canopy

/// The Tasks feature's effects: saving the board and firing reminders.
enum TasksEffects {
    static func attach(to store: TasksStore, environment: Environment) {
        attachSave(to: store, environment: environment)
        attachReminders(to: store, environment: environment)
    }

    /// `effect(_:on:create:)` on `saving.run`: each change restarts the run with a delay, so only the
    /// last change of a burst writes (debounce). A failed write dispatches `saveFailed`, and the
    /// reducer retries it with backoff; the write of an older attempt never overwrites a newer one.
    private static func attachSave(to store: TasksStore, environment: Environment) {
        guard let write = environment.writeTasks else { return }
        store.effect(\.1.saving.run, on: environment.effectQueue) { state, dispatch in
            let board = state.1.snapshot
            let revision = state.1.revision
            return Effect(operation: {
                do {
                    try await write(board)
                    dispatch(.tasks(.saved(revision: revision)))
                } catch {
                    let reason = ErrorText.describe(error)
                    dispatch(.tasks(.saveFailed(reason: reason, permanent: ErrorText.isPermanent(error))))
                }
            })
        }
    }

    /// `effect(collection:on:forEach:)` on the reminders: each waits its own delay and fires; one that
    /// is removed (task done or deleted, reminder replaced) is cancelled.
    private static func attachReminders(to store: TasksStore, environment: Environment) {
        store.effect(collection: \.1.reminderRuns, on: environment.effectQueue) { state, run, dispatch in
            guard let reminder = state.1.reminders.first(where: { $0.run == run }) else { return .postpone }
            return Effect {
                dispatch(.tasks(.reminderFired(id: reminder.taskID)))
            }
        }
    }
}
