/// Decides whether an action that would start work under an id passes, given how many runs are already
/// in flight under it: it passes while fewer than `limit` are.
struct InFlightLimit: Sendable, Hashable {
    let limit: Int

    init(_ limit: Int) {
        precondition(limit >= 1, "Middleware.maxInFlight needs a limit of 1 or more, got \(limit)")
        self.limit = limit
    }

    func admits(inFlight: Int) -> Bool {
        inFlight < limit
    }
}
