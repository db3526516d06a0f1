/// The overrides in force in a task or a block: set by ``withDependencies(_:operation:)`` and
/// ``withSharedStores(_:operation:)``, task-local, and carried by Canopy to the code it runs later.
///
/// Reducers, effect factories and effects run on queues, not in the task that handed them over, so a
/// task-local does not reach them by itself. Canopy captures the scope where the code is handed over
/// and binds it again each time the code runs:
/// - a reducer, when its store is created (``StateStore/init(_:qos:scheduler:reducer:)``,
///   ``StateStore/with(_:reducer:)``);
/// - an effect factory, when an effect operator adds it;
/// - an ``Effect``'s operation, when the effect is created;
/// - middleware and error resolvers, when they are attached (``StateStore/use(_:resolvers:)``, or the
///   initializer that takes them);
/// - work by id (``MiddlewareContext/run(id:cancelInFlight:operation:)``), when the middleware, running
///   in its scope, starts it.
///
/// Outside any scope nothing is captured and nothing is wrapped, so production code pays one
/// task-local read per store, operator and effect created.
struct DependencyScope: Sendable {
    /// The dependencies of the scope, or `nil` if it overrides none and the app's are in force.
    var dependencies: Dependencies?
    /// The shared stores of the scope, or `nil` if it overrides none and the app's are in force.
    var stores: SharedStores?

    /// The innermost scope, or `nil` outside every scope.
    @TaskLocal static var current: DependencyScope?

    /// The innermost scope, with the `Container` values `update` makes of the ones in force now.
    static func overriding<Container: EntryContainer>(
        with update: (inout Container) throws -> Void
    ) rethrows -> DependencyScope {
        var scope = current ?? DependencyScope()
        var values = Container.current
        try update(&values)
        scope[keyPath: Container.scoped] = values
        return scope
    }

    /// Returns `reducer`, made to run inside the scope in force now, if any.
    static func capturing<State, Action>(
        _ reducer: @escaping Reducer<State, Action>
    ) -> Reducer<State, Action> {
        guard let scope = current else { return reducer }
        return { state, action in
            $current.withValue(scope) { reducer(&state, action) }
        }
    }

    /// Returns `body`, made to run inside the scope in force now, if any.
    static func capturing<First, Second, Third, Result>(
        _ body: @escaping @Sendable (First, Second, Third) -> Result
    ) -> @Sendable (First, Second, Third) -> Result {
        guard let scope = current else { return body }
        return { first, second, third in
            $current.withValue(scope) { body(first, second, third) }
        }
    }

    /// Returns `body`, made to run inside the scope in force now, if any.
    static func capturing(_ body: @escaping @Sendable () -> Void) -> @Sendable () -> Void {
        guard let scope = current else { return body }
        return { $current.withValue(scope, operation: body) }
    }

    /// Returns `body`, made to run inside the scope in force now, if any.
    static func capturing<Input: Sendable>(
        _ body: @escaping @Sendable (Input) async throws -> Void
    ) -> @Sendable (Input) async throws -> Void {
        guard let scope = current else { return body }
        return { input in try await $current.withValue(scope) { try await body(input) } }
    }

    /// Returns `body`, made to run inside the scope in force now, if any.
    static func capturing(_ body: @escaping @Sendable () async -> Void) -> @Sendable () async -> Void {
        guard let scope = current else { return body }
        return { await $current.withValue(scope, operation: body) }
    }
}
