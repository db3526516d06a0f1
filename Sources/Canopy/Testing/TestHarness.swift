/// What a test harness (`CanopyTesting`'s `TestStore`) learns from a store tree: every action the root
/// reduces, and the life of every effect run.
///
/// The harness installs itself through the scheduler the tree is created with: a root created with a
/// scheduler that conforms runs the reducer ``rootReducer(_:)`` returns, and the tree's effect runs
/// report to the probes ``effectRunStarted(delayed:)`` returns. Other work the tree runs off its queue
/// reports the same way: `CanopyPersistence` follows each write round with a probe. Production
/// schedulers do not conform, and then nothing of this runs. The action log built on the middleware may
/// replace this later.
package protocol TestHarness: DelayScheduler {
    /// Called once, when a root is created with this scheduler: returns the reducer the root runs
    /// instead of `reducer`. Every action of the tree reaches the root reducer, so a wrapper sees them
    /// all, on the tree's queue, in the order they are reduced.
    func rootReducer<State: Sendable, Action: Sendable>(
        _ reducer: @escaping Reducer<State, Action>
    ) -> Reducer<State, Action>

    /// Called on the store's queue when an effect run starts. The returned probe follows the run until
    /// it ends.
    ///
    /// - Parameter delayed: Whether the run first waits for its delay on this scheduler.
    /// - Returns: The probe the run reports to.
    func effectRunStarted(delayed: Bool) -> any EffectRunProbe
}

/// Follows one effect run for a ``TestHarness``.
///
/// ``performing()`` is called when the effect's body starts (at once for a run without delay), and
/// ``ended()`` when the body returned, its task finished, or the run was cancelled before its body
/// started; `ended()` may be called more than once. While an async body runs, its task sees the probe
/// in ``EffectRunContext/probe``, so a harness scheduler can tell that the task waits for the clock.
package protocol EffectRunProbe: Sendable {
    /// The effect's body is starting, on the effect queue.
    func performing()

    /// The run is over. Idempotent.
    func ended()
}

/// The task-local context of an effect run's task.
package enum EffectRunContext {
    /// The probe of the effect run whose task is running, when a ``TestHarness`` follows it.
    @TaskLocal package static var probe: (any EffectRunProbe)?
}
