import Canopy
import Dispatch
import Testing

/// Code that Canopy runs later, on its own queues, sees the scope in force where it was handed over.
@Suite(.timeLimit(.minutes(1))) struct DependencyScopeTests {
    enum Action: Sendable {
        case stamp
        case start
        case result(String)
    }

    struct Model: Sendable, Equatable {
        var stamp = ""
        var isRunning = false
        var results: [String] = []
    }

    static func reduce(_ model: inout Model, _ action: Action) {
        switch action {
        case .stamp: model.stamp = Dependency[\.greeting]
        case .start: model.isRunning = true
        case .result(let text): model.results.append(text)
        }
    }

    @Test func aStoreMadeInAScopeReducesWithItsValuesAfterTheScopeEnds() async {
        let store = withDependencies {
            $0.greeting = "scoped"
        } operation: {
            StateStore<Model, Action>(Model(), reducer: Self.reduce)
        }
        #expect(await store.send(.stamp).stamp == "scoped")
    }

    @Test func aStoreMadeOutsideAScopeKeepsTheAppsValuesWhenSentToFromOne() async {
        let store = StateStore<Model, Action>(Model(), reducer: Self.reduce)
        let stamp = await withDependencies {
            $0.greeting = "scoped"
        } operation: {
            await store.send(.stamp).stamp
        }
        #expect(stamp == "default")
    }

    @Test func aChildMadeInAScopeReducesWithItsValues() async {
        let root = StateStore<Model, Action>(Model(), reducer: Self.reduce)
        let child = withDependencies {
            $0.greeting = "child scope"
        } operation: {
            root.with("") { text, action in
                if case .stamp = action { text = Dependency[\.greeting] }
            }
        }
        let state = await child.send(.stamp)
        #expect(state.1 == "child scope")
        #expect(state.0.stamp == "default")  // the root was made outside the scope
    }

    @Test func effectsAddedInAScopeRunTheirFactoriesAndOperationsWithItsValues() async {
        let effectQueue = DispatchQueue(label: "effects")
        let store = StateStore<Model, Action>(Model(), reducer: Self.reduce)
        withDependencies {
            $0.greeting = "scoped"
        } operation: {
            store.effect(toggle: \.isRunning, on: effectQueue) { _, dispatch in
                let fromFactory = Dependency[\.greeting]
                return Effect {
                    dispatch(.result("factory: \(fromFactory)"))
                    dispatch(.result("sync: \(Dependency[\.greeting])"))
                }
            }
            store.effect(toggle: \.isRunning, on: effectQueue) { _, dispatch in
                Effect {
                    await Task.yield()
                    dispatch(.result("async: \(Dependency[\.greeting])"))
                }
            }
        }
        store.dispatch(.start)  // outside the scope
        let model = await firstState(of: store) { $0.results.count == 3 }
        #expect(
            model?.results.sorted() == ["async: scoped", "factory: scoped", "sync: scoped"]
        )
    }

    @Test func anEffectKeepsTheValuesOfTheScopeItWasCreatedIn() async {
        let effectQueue = DispatchQueue(label: "effects")
        let store = StateStore<Model, Action>(Model(), reducer: Self.reduce)
        // A weak handle: the store keeps the effect, so a strong one would keep the store for ever.
        let handle = store.weakStore()
        let effect = withDependencies {
            $0.greeting = "created in scope"
        } operation: {
            Effect { handle.dispatch(.result(Dependency[\.greeting])) }
        }
        store.effect(toggle: \.isRunning, on: effectQueue) { _, _ in effect }
        store.dispatch(.start)
        let model = await firstState(of: store) { !$0.results.isEmpty }
        #expect(model?.results == ["created in scope"])
    }

    @Test func effectsAddedOutsideAScopeSeeTheAppsValues() async {
        let effectQueue = DispatchQueue(label: "effects")
        let store = StateStore<Model, Action>(Model(), reducer: Self.reduce)
        store.effect(toggle: \.isRunning, on: effectQueue) { _, dispatch in
            Effect { dispatch(.result(Dependency[\.greeting])) }
        }
        await withDependencies {
            $0.greeting = "scoped"
        } operation: {
            await store.send(.start)
        }
        let model = await firstState(of: store) { !$0.results.isEmpty }
        #expect(model?.results == ["default"])
    }

    struct Failure: Error {}

    /// A store made in a scope: its middleware, the work it starts by id and its resolvers all read the
    /// scope's values, as its reducer does, though every action is sent from outside the scope.
    @Test func middlewareWorkByIDAndResolversOfAStoreMadeInAScopeSeeItsValues() async {
        let stamp = Middleware<Model, Action>("stamp") { action, context in
            guard case .start = action else { return context.next(action) }
            context.dispatch(.result("middleware: \(Dependency[\.greeting])"))
            context.run(id: "work") { task in
                await Task.yield()
                task.send(.result("work: \(Dependency[\.greeting])"))
            }
            throw Failure()
        }
        let recover = ErrorResolver<Model, Action>("recover") { _, context in
            context.dispatch(.result("resolver: \(Dependency[\.greeting])"))
            return .resolved
        }
        let store = withDependencies {
            $0.greeting = "scoped"
        } operation: {
            StateStore<Model, Action>(Model(), middlewares: [stamp], resolvers: [recover], reducer: Self.reduce)
        }
        store.dispatch(.start)
        let model = await firstState(of: store) { $0.results.count == 3 }
        #expect(model?.results.sorted() == ["middleware: scoped", "resolver: scoped", "work: scoped"])
    }

    @Test func middlewareAttachedInAScopeSeesItsValues() async {
        let store = StateStore<Model, Action>(Model(), reducer: Self.reduce)
        withDependencies {
            $0.greeting = "attached in scope"
        } operation: {
            store.use(
                Middleware("stamp") { action, context in
                    if case .start = action { context.dispatch(.result(Dependency[\.greeting])) }
                    context.next(action)
                }
            )
        }
        store.dispatch(.start)
        let model = await firstState(of: store) { !$0.results.isEmpty }
        #expect(model?.results == ["attached in scope"])
    }
}

/// Waits for the first state of `store` (the current one included) that satisfies `condition`.
private func firstState<State: Sendable, Action: Sendable>(
    of store: StateStore<State, Action>,
    where condition: (State) -> Bool
) async -> State? {
    for await state in store.states() where condition(state) {
        return state
    }
    return nil
}
