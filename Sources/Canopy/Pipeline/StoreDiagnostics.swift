/// Observes what a store tree's runtime does: actions received, blocked and reduced, observers
/// notified, work started and ended, errors no one handled, and cycles.
///
/// A tree has at most one. Canopy logs nothing by itself; an app bridges these events to its logger.
/// When no diagnostics are attached the runtime does not build events at all, so they cost nothing.
///
/// Events are recorded on the tree's queue for what happens there (receiving, reducing, middleware
/// errors, cycles) and on the thread of a task for work started by id, so implementations must be
/// thread-safe and quick: copy what you need and hand it on.
///
/// ```swift
/// struct PrintDiagnostics: StoreDiagnostics {
///     func record(_ event: StoreEvent) {
///         print(event)
///     }
/// }
/// let store = StateStore(0, middlewares: [], diagnostics: PrintDiagnostics()) { state, action in state += action }
/// ```
public protocol StoreDiagnostics: Sendable {
    /// Receives one runtime event.
    ///
    /// - Parameter event: What happened, and in which node.
    func record(_ event: StoreEvent)
}
