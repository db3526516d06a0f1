import Canopy
import CanopyPersistence

typealias TasksStoreState = (AppState, TasksState)
typealias SearchStoreState = ((AppState, TasksState), SearchState)
typealias SyncStoreState = ((AppState, TasksState), SyncState)
typealias StatsStoreState = ((AppState, TasksState), StatsState)

typealias TasksStore = StateStore<TasksStoreState, AppAction>
typealias SearchStore = StateStore<SearchStoreState, AppAction>
typealias SyncStore = StateStore<SyncStoreState, AppAction>
typealias StatsStore = StateStore<StatsStoreState, AppAction>

/// The store tree of TaskBoard, with every feature's effects attached.
///
/// ```
/// root (AppState: today, action count)
/// └── tasks (TasksState: tasks, reminders)               writer: the database; effects: reminders
///     ├── search (SearchState: query, results)           middleware: debounced search
///     ├── sync (SyncState: push/pull, retries)           effects: sync attempt, auto-sync; throttled
///     └── stats (StatsState: options)                    debounced props subscription
/// ```
///
/// Actions go up: a pull sent to `sync` runs the Sync reducer, then the Tasks reducer (which takes
/// the pulled tasks), then the root's. State comes down: `search`, `sync` and `stats` each see the
/// tasks next to their own state.
///
/// Middleware: `tasks` validates changes (`TaskRules`); `search` runs the search by id
/// (`SearchMiddleware`); `sync` throttles sync requests (`SyncThrottle`).
final class Board: Sendable {
    let root: StateStore<AppState, AppAction>
    let tasks: TasksStore
    let search: SearchStore
    let sync: SyncStore
    let stats: StatsStore
    let statsPresenter: StatsPresenter
    let environment: Environment

    /// Builds the tree; `effects: false` leaves out every feature's effects, for replaying an action log
    /// (the log already holds the actions they sent).
    init(today: Day, saved: TasksSnapshot?, environment: Environment, effects: Bool = true) {
        self.environment = environment
        root = StateStore(
            AppState(today: today),
            scheduler: environment.scheduler,
            middlewares: [],
            diagnostics: environment.diagnostics
        ) { state, action in
            state.reduce(action)
        }
        tasks = root.with(TasksState(), reducer: TasksState.reducer)
        tasks.use(TaskRules.validate)
        search = tasks.with(SearchState(), reducer: SearchState.reducer)
        sync = tasks.with(SyncState(settings: environment.sync), reducer: SyncState.reducer)
        sync.use(SyncThrottle.middleware(interval: environment.syncThrottle))
        stats = tasks.with(StatsState(), reducer: StatsState.reducer)

        if let saved {
            tasks.dispatch(.tasks(.restore(saved)))
        }
        if effects, let writer = environment.writer {
            var options = environment.persistence
            let saves = environment.saves
            options.onEvent = { saves.record($0) }
            tasks.persist(\.1.items, to: writer, options: options)
        }
        if effects {
            TasksEffects.attach(to: tasks, environment: environment)
            search.use(SearchMiddleware.make(environment: environment))
            SyncEffects.attach(to: sync, environment: environment)
        }
        statsPresenter = StatsPresenter(store: stats, debounce: environment.statsDebounce)
    }
}
