/// A side effect that a store runs on behalf of an ``Effect/State`` (or a toggle, a changed value, or a
/// collection element) found in its state.
///
/// You never run an `Effect` yourself: an effect operator such as
/// ``StateStore/effect(_:on:create:)`` asks your factory for one when the state says work should
/// start, runs it on the queue you chose, and cancels it when the state says the work is no longer
/// wanted. Results go back to the store through the `dispatch` the factory received.
///
/// ```swift
/// store.effect(\.loadProfile, on: .main) { state, dispatch in
///     Effect {
///         let profile = try await api.profile(id: state.userID)
///         dispatch(.profileLoaded(profile))
///     } catch: { error in
///         dispatch(.profileFailed(error))
///     }
/// }
/// ```
///
/// The synchronous form runs once on the effect queue and cannot be interrupted once it has started.
/// The `async` forms run in a `Task` started from the effect queue; cancelling the effect cancels that
/// task, so cooperative code (`Task.isCancelled`, `Task.checkCancellation()`, cancellable awaits) stops.
public struct Effect: Sendable {
    enum Operation: Sendable {
        case postpone
        case sync(@Sendable () -> Void)
        case async(@Sendable () async -> Void)
    }

    let operation: Operation

    // The operation runs in the dependency scope in force where the effect is created (see
    // `DependencyScope`).
    private init(_ operation: Operation) {
        switch operation {
        case .postpone:
            self.operation = .postpone
        case .sync(let body):
            self.operation = .sync(DependencyScope.capturing(body))
        case .async(let body):
            self.operation = .async(DependencyScope.capturing(body))
        }
    }

    /// Creates an effect that runs `operation` once, synchronously, on the effect queue.
    ///
    /// Cancelling the effect before it starts keeps it from running; once started, it runs to the end.
    ///
    /// ```swift
    /// Effect { analytics.log("opened") }
    /// ```
    ///
    /// - Parameter operation: The work to run.
    public init(_ operation: @escaping @Sendable () -> Void) {
        self.init(.sync(operation))
    }

    /// Creates an effect that runs `operation` in a `Task` started from the effect queue.
    ///
    /// Cancelling the effect cancels the task.
    ///
    /// ```swift
    /// Effect {
    ///     let items = await cache.items()
    ///     dispatch(.itemsLoaded(items))
    /// }
    /// ```
    ///
    /// - Parameter operation: The work to run.
    public init(operation: @escaping @Sendable () async -> Void) {
        self.init(.async(operation))
    }

    /// Creates an effect that runs a throwing `operation` in a `Task` and passes any error it throws
    /// to `handler`.
    ///
    /// Cancelling the effect cancels the task. The handler receives every error the operation throws,
    /// except a `CancellationError` thrown after the effect was cancelled: that one is the expected
    /// end of a cancelled run. Actions the handler dispatches for a run that is no longer current are
    /// dropped like any other late result.
    ///
    /// ```swift
    /// Effect {
    ///     try await uploader.upload(draft)
    ///     dispatch(.uploaded)
    /// } catch: { error in
    ///     dispatch(.uploadFailed(error))
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - operation: The work to run.
    ///   - handler: Receives the error `operation` threw, in the task that ran it.
    public init(
        operation: @escaping @Sendable () async throws -> Void,
        catch handler: @escaping @Sendable (any Error) -> Void
    ) {
        self.init(
            .async {
                do {
                    try await operation()
                } catch is CancellationError where Task.isCancelled {
                    return
                } catch {
                    handler(error)
                }
            }
        )
    }

    /// An effect that does nothing now and asks again later.
    ///
    /// Return it from a factory when the current state is not ready for the work yet: the store calls
    /// the factory again on each later state for as long as the work is still wanted.
    ///
    /// ```swift
    /// store.effect(\.sync) { state, dispatch in
    ///     guard state.isOnline else { return .postpone }
    ///     return Effect { ... }
    /// }
    /// ```
    public static let postpone = Effect(.postpone)
}
