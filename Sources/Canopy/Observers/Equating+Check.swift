extension Equating where T: Sendable {
    /// The dedup check of one subscription, as the closure its node calls with each state: it calls
    /// `passed` with each state that this equating does not call a duplicate of the last one passed, and
    /// answers `.active` for a duplicate.
    ///
    /// The check that the equating made where it was made (``makeCheck``), compiled for its types, when
    /// it has one; otherwise one that keeps the last state and asks the predicate
    /// (``StateDeduplicator``). A method of the equating rather than a static one of the deduplicator,
    /// so that subscribing with a compiled check never looks up the deduplicator's generic metadata.
    ///
    /// - Parameter passed: Receives the states that pass.
    /// - Returns: The check.
    func check(
        passed: @escaping @Sendable (T) -> ObserverStatus
    ) -> @Sendable (T) -> ObserverStatus {
        if let makeCheck {
            return makeCheck(passed)
        }
        let deduplicator = StateDeduplicator(predicate)
        return { state in
            deduplicator.accepts(state) ? passed(state) : .active
        }
    }
}
