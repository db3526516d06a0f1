extension Equating where T: Sendable {
    /// The dedup check of one subscription, as the closure its node calls with each state: it calls
    /// `next` with each state that this equating does not call a duplicate of the last one passed, through
    /// `gate` when there is one (then answering `.dead` once the gate is closed), and answers `.active`
    /// for a duplicate.
    ///
    /// The check that the equating made where it was made (``makeCheck``), compiled for its types, when
    /// it has one; otherwise one that keeps the last state and asks the predicate
    /// (``StateDeduplicator``). A method of the equating rather than a static one of the deduplicator,
    /// so that subscribing with a compiled check never looks up the deduplicator's generic metadata.
    ///
    /// - Parameters:
    ///   - gate: The subscription's gate, for a handler called on the tree's queue; `nil` when `next`
    ///     is the rest of a subscriber pipeline, which has a gate of its own.
    ///   - next: Receives the states that pass.
    /// - Returns: The check.
    func check(
        gate: CallGate?,
        next: @escaping @Sendable (T) -> Void
    ) -> @Sendable (T) -> ObserverStatus {
        if let makeCheck {
            return makeCheck(next, gate)
        }
        let deduplicator = StateDeduplicator(predicate)
        guard let gate else {
            return { state in
                if deduplicator.accepts(state) {
                    next(state)
                }
                return .active
            }
        }
        return { state in
            deduplicator.accepts(state) ? gate.call(next, with: state) : .active
        }
    }
}
