/// Builds one ``Reducer`` from smaller ones.
///
/// Each feature of an app keeps its own reducer over its own slice of state and its own actions;
/// `Reducers` glues them into the reducer a store runs. The results are ordinary reducers: pass them to
/// `StateStore(_:reducer:)` or `with(_:reducer:)`.
///
/// ```swift
/// let appReducer: Reducer<AppState, AppAction> = Reducers.combine(
///     Reducers.scope(state: \.settings, action: AppAction.settingsAction, reducer: Settings.reduce),
///     Reducers.forEach(\.tasks, action: AppAction.taskAction, reducer: TaskItem.reduce),
///     Reducers.ifLet(state: \.editor, action: AppAction.editorAction, reducer: Editor.reduce)
/// )
/// ```
///
/// Here `AppAction.settingsAction` and its siblings are case-extraction functions, such as
/// `static func settingsAction(_ action: AppAction) -> SettingsAction?`, returning `nil` for other cases.
///
/// An action for a slice that is not there (an element id that is no longer in the collection, an
/// optional that is `nil`) does nothing. That is deliberate and not an assertion: actions are reduced
/// after they are sent, so an effect's result for a task the user just deleted is an ordinary event.
public enum Reducers: Sendable {
    /// Runs `reducers` one after the other on the same state and action, in the order given.
    ///
    /// Each reducer sees the state the previous one left. No reducers gives a reducer that changes
    /// nothing.
    ///
    /// ```swift
    /// let reducer = Reducers.combine(countActions, applyAction)
    /// ```
    ///
    /// - Parameter reducers: The reducers to run, first to last.
    /// - Returns: A reducer that runs them all.
    public static func combine<State, Action>(_ reducers: Reducer<State, Action>...) -> Reducer<State, Action> {
        combine(reducers)
    }

    /// Runs `reducers` one after the other on the same state and action, in array order.
    ///
    /// Use this form when the list is built at run time; see ``combine(_:)-(Reducer<State,Action>...)``.
    ///
    /// ```swift
    /// let reducer = Reducers.combine(features.map(\.reducer))
    /// ```
    ///
    /// - Parameter reducers: The reducers to run, first to last.
    /// - Returns: A reducer that runs them all.
    public static func combine<State, Action>(_ reducers: [Reducer<State, Action>]) -> Reducer<State, Action> {
        switch reducers.count {
        case 0:
            return { _, _ in }
        case 1:
            return reducers[0]
        default:
            return { state, action in
                for reducer in reducers {
                    reducer(&state, action)
                }
            }
        }
    }

    /// Runs `reducer` on one part of the state, for the actions that concern it.
    ///
    /// `action` picks the local action out of a parent action (a case-extraction closure is typical);
    /// when it returns `nil` the reducer does not run and the state is not touched. Only the slice at
    /// `state` is handed to `reducer`.
    ///
    /// ```swift
    /// enum AppAction { case settings(SettingsAction), other }
    /// let reducer: Reducer<AppState, AppAction> = Reducers.scope(
    ///     state: \.settings,
    ///     action: { if case .settings(let action) = $0 { action } else { nil } },
    ///     reducer: Settings.reduce
    /// )
    /// ```
    ///
    /// - Parameters:
    ///   - state: The slice of the parent state the child reducer owns.
    ///   - action: Extracts the child's action from a parent action, or returns `nil`.
    ///   - reducer: The child reducer.
    /// - Returns: A reducer of the parent state and actions.
    public static func scope<State, LocalState, Action, LocalAction>(
        state: any WritableKeyPath<State, LocalState> & Sendable,
        action: @escaping @Sendable (Action) -> LocalAction?,
        reducer: @escaping Reducer<LocalState, LocalAction>
    ) -> Reducer<State, Action> {
        { parent, parentAction in
            guard let local = action(parentAction) else { return }
            reducer(&parent[keyPath: state], local)
        }
    }

    /// Runs `reducer` on the element of a collection that an action names by id.
    ///
    /// `action` turns a parent action into the element's id and a local action, or returns `nil`. Only
    /// the first element whose `id` matches is reduced; the others, and the rest of the state, are not
    /// touched. When no element has that id, nothing happens (see ``Reducers`` for why this is not an
    /// assertion).
    ///
    /// ```swift
    /// enum BoardAction { case task(id: Int, TaskAction) }
    /// let reducer: Reducer<Board, BoardAction> = Reducers.forEach(
    ///     \.tasks,
    ///     id: \.number,
    ///     action: { if case .task(let id, let action) = $0 { (id, action) } else { nil } },
    ///     reducer: TaskItem.reduce
    /// )
    /// ```
    ///
    /// - Parameters:
    ///   - elements: The collection in the parent state.
    ///   - id: The key path of an element's identifier.
    ///   - action: Extracts an element id and a local action from a parent action, or returns `nil`.
    ///   - reducer: The element reducer.
    /// - Returns: A reducer of the parent state and actions.
    public static func forEach<State, Elements, ID, LocalAction, Action>(
        _ elements: any WritableKeyPath<State, Elements> & Sendable,
        id: any KeyPath<Elements.Element, ID> & Sendable,
        action: @escaping @Sendable (Action) -> (ID, LocalAction)?,
        reducer: @escaping Reducer<Elements.Element, LocalAction>
    ) -> Reducer<State, Action>
    where
        Elements: MutableCollection,
        ID: Hashable,
        Elements: SendableMetatype,
        Elements.Index: SendableMetatype,
        ID: SendableMetatype
    {
        { parent, parentAction in
            guard let (elementID, local) = action(parentAction) else { return }
            guard let index = parent[keyPath: elements].firstIndex(where: { $0[keyPath: id] == elementID }) else {
                return
            }
            reducer(&parent[keyPath: elements][index], local)
        }
    }

    /// Runs `reducer` on the element of a collection of `Identifiable` values that an action names.
    ///
    /// The same as ``forEach(_:id:action:reducer:)`` with `id: \.id`.
    ///
    /// ```swift
    /// let reducer: Reducer<Board, BoardAction> = Reducers.forEach(
    ///     \.tasks,
    ///     action: { if case .task(let id, let action) = $0 { (id, action) } else { nil } },
    ///     reducer: TaskItem.reduce
    /// )
    /// ```
    ///
    /// - Parameters:
    ///   - elements: The collection in the parent state.
    ///   - action: Extracts an element id and a local action from a parent action, or returns `nil`.
    ///   - reducer: The element reducer.
    /// - Returns: A reducer of the parent state and actions.
    public static func forEach<State, Elements, LocalAction, Action>(
        _ elements: any WritableKeyPath<State, Elements> & Sendable,
        action: @escaping @Sendable (Action) -> (Elements.Element.ID, LocalAction)?,
        reducer: @escaping Reducer<Elements.Element, LocalAction>
    ) -> Reducer<State, Action>
    where
        Elements: MutableCollection,
        Elements.Element: Identifiable,
        Elements: SendableMetatype,
        Elements.Index: SendableMetatype,
        Elements.Element: SendableMetatype
    {
        { parent, parentAction in
            guard let (elementID, local) = action(parentAction) else { return }
            guard let index = parent[keyPath: elements].firstIndex(where: { $0.id == elementID }) else { return }
            reducer(&parent[keyPath: elements][index], local)
        }
    }

    /// Runs `reducer` on an optional part of the state while it holds a value.
    ///
    /// When the optional is `nil`, or `action` returns `nil`, nothing happens. A child reducer that sets
    /// its state to `nil` cannot: it sees the unwrapped value. Clear the optional from a parent reducer.
    ///
    /// ```swift
    /// let reducer: Reducer<AppState, AppAction> = Reducers.ifLet(
    ///     state: \.editor,
    ///     action: { if case .editor(let action) = $0 { action } else { nil } },
    ///     reducer: Editor.reduce
    /// )
    /// ```
    ///
    /// - Parameters:
    ///   - state: The optional slice of the parent state.
    ///   - action: Extracts the child's action from a parent action, or returns `nil`.
    ///   - reducer: The child reducer, over the unwrapped value.
    /// - Returns: A reducer of the parent state and actions.
    public static func ifLet<State, LocalState, Action, LocalAction>(
        state: any WritableKeyPath<State, LocalState?> & Sendable,
        action: @escaping @Sendable (Action) -> LocalAction?,
        reducer: @escaping Reducer<LocalState, LocalAction>
    ) -> Reducer<State, Action> {
        { parent, parentAction in
            guard let local = action(parentAction), parent[keyPath: state] != nil else { return }
            reducer(&parent[keyPath: state]!, local)
        }
    }
}
