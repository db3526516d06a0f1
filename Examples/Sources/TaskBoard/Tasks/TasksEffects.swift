import Canopy

/// The Tasks feature's effects: firing reminders. (Storing the board is not an effect: the writer
/// registered with `persist` in `Board` takes the changes after each reduce.)
enum TasksEffects {
    static func attach(to store: TasksStore, environment: Environment) {
        attachReminders(to: store, environment: environment)
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
