/// Runs `operation` with the dependencies `update` sets, and only there.
///
/// The scope is task-local: `operation` and the tasks it starts with `Task { … }` see the overrides,
/// other tasks and threads do not, so tests that run in parallel can each replace a dependency without
/// touching the app's values. Scopes nest: an inner scope starts from the values of the outer one.
/// Code that Canopy runs later on its own queues sees the scope in force where it was handed over:
/// the reducers of a store created in the scope, the factories of effect operators called in it, and
/// the effects they create.
///
/// ```swift
/// withDependencies {
///     $0.now = { Date(timeIntervalSince1970: 0) }
/// } operation: {
///     #expect(Dependency[\.now]() == Date(timeIntervalSince1970: 0))
/// }
/// ```
///
/// - Parameters:
///   - update: Changes the values in force here into the scope's values.
///   - operation: The code that runs with the scope's values.
/// - Returns: What `operation` returns.
@discardableResult
public func withDependencies<Result>(
    _ update: (inout Dependencies) throws -> Void,
    operation: () throws -> Result
) rethrows -> Result {
    let scope = try DependencyScope.overriding(with: update)
    return try DependencyScope.$current.withValue(scope, operation: operation)
}

/// Runs the asynchronous `operation` with the dependencies `update` sets, and only there.
///
/// The same as the synchronous ``withDependencies(_:operation:)``, for code that awaits.
///
/// ```swift
/// await withDependencies {
///     $0.now = { Date(timeIntervalSince1970: 0) }
/// } operation: {
///     await store.send(.stamp)
/// }
/// ```
///
/// - Parameters:
///   - update: Changes the values in force here into the scope's values.
///   - isolation: The actor `operation` runs on; the caller's by default.
///   - operation: The code that runs with the scope's values.
/// - Returns: What `operation` returns.
@discardableResult
public func withDependencies<Result>(
    _ update: (inout Dependencies) throws -> Void,
    isolation: isolated (any Actor)? = #isolation,
    operation: () async throws -> Result
) async rethrows -> Result {
    let scope = try DependencyScope.overriding(with: update)
    return try await DependencyScope.$current.withValue(scope, operation: operation, isolation: isolation)
}

/// Runs `operation` with the shared stores `update` sets, and only there.
///
/// Scoped like ``withDependencies(_:operation:)``: task-local, nested scopes start from the outer
/// one's stores, and `@StoreOf` wrappers created in the scope take the scope's stores.
///
/// ```swift
/// withSharedStores {
///     $0.root = StateStore(AppState.sample) { state, action in state.reduce(action) }
/// } operation: {
///     let screen = ProfileScreen()  // its @StoreOf(\.root) is the sample store
/// }
/// ```
///
/// - Parameters:
///   - update: Changes the stores in force here into the scope's stores.
///   - operation: The code that runs with the scope's stores.
/// - Returns: What `operation` returns.
@discardableResult
public func withSharedStores<Result>(
    _ update: (inout SharedStores) throws -> Void,
    operation: () throws -> Result
) rethrows -> Result {
    let scope = try DependencyScope.overriding(with: update)
    return try DependencyScope.$current.withValue(scope, operation: operation)
}

/// Runs the asynchronous `operation` with the shared stores `update` sets, and only there.
///
/// The same as the synchronous ``withSharedStores(_:operation:)``, for code that awaits.
///
/// ```swift
/// await withSharedStores {
///     $0.root = StateStore(AppState.sample) { state, action in state.reduce(action) }
/// } operation: {
///     await SharedStores[\.root].send(.refresh)
/// }
/// ```
///
/// - Parameters:
///   - update: Changes the stores in force here into the scope's stores.
///   - isolation: The actor `operation` runs on; the caller's by default.
///   - operation: The code that runs with the scope's stores.
/// - Returns: What `operation` returns.
@discardableResult
public func withSharedStores<Result>(
    _ update: (inout SharedStores) throws -> Void,
    isolation: isolated (any Actor)? = #isolation,
    operation: () async throws -> Result
) async rethrows -> Result {
    let scope = try DependencyScope.overriding(with: update)
    return try await DependencyScope.$current.withValue(scope, operation: operation, isolation: isolation)
}
