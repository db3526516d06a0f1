/// Reads the state of the node a middleware chain is attached to, on the tree's queue.
///
/// The chain's links and scratch know only the action type, so that the engine, which knows a node's
/// action type but not its state type, can call a chain's first middleware itself; the reader is what
/// of the chain knows the state type. A middleware's context gets it back, checked, when the middleware
/// asks for the state.
@usableFromInline
final class ChainStateReader<State>: Sendable {
    @usableFromInline
    let read: @Sendable () -> State

    init(_ read: @escaping @Sendable () -> State) {
        self.read = read
    }

    /// The reader kept by `scratch`, whose chain is attached to a node of state type `State`.
    @inlinable
    static func reader<Action>(of scratch: ChainScratch<Action>) -> ChainStateReader {
        guard let reader = scratch.stateReader as? ChainStateReader else { readerOfAnotherType() }
        return reader
    }

    /// Traps: the chain's reader reads another state type. Compiled in Canopy, so the check holds
    /// whatever the app's module is built with.
    @usableFromInline
    static func readerOfAnotherType() -> Never {
        preconditionFailure("Internal inconsistency: a middleware chain's state reader is of another state type")
    }
}
