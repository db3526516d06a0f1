/// What a ``MiddlewareChain`` decided for one action.
///
/// It is not generic: the action to reduce is written back into the chain's `inout` argument, so the
/// engine's unspecialised code returns it without a runtime metadata lookup.
enum MiddlewareResult {
    /// The last middleware passed an action on; it is in the `action` argument. Reduce it.
    case forwarded
    /// The named middleware returned without calling `next`.
    case blocked(middleware: String)
    /// A middleware threw this error; the resolvers have run.
    case failed(any Error)
}
