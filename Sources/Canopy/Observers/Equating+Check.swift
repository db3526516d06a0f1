extension Equating where T: Sendable {
    /// The dedup check of one subscription whose equating knows only its predicate, as the closure its
    /// node calls with each state: it keeps the last state passed (``StateDeduplicator``), calls `passed`
    /// with each state that the predicate does not call a duplicate of it, and answers `.active` for a
    /// duplicate. An equating that compares a projection makes its own check (``makeCheck``).
    ///
    /// A method of the equating rather than a static one of the deduplicator, so that subscribing never
    /// looks up the deduplicator's generic metadata.
    ///
    /// - Parameter passed: Receives the states that pass.
    /// - Returns: The check.
    func predicateCheck(
        passed: @escaping @Sendable (T) -> ObserverStatus
    ) -> @Sendable (T) -> ObserverStatus {
        let deduplicator = StateDeduplicator(predicate)
        return { state in
            deduplicator.accepts(state) ? passed(state) : .active
        }
    }
}
