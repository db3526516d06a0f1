/// A node's cached state, in an object of its own: the state is the buffer's header, made with the object
/// (``make(_:)``) and destroyed with it by the runtime, so no code allocates, initialises or frees it by
/// hand. A node's box of extras holds it (``NodeExtras/cache``), or, for the root, the node itself.
///
/// The state is reached only inside a closure (``read(_:)``, ``modify(_:)``), through the header's address,
/// which the buffer hands out for the closure's run only: no address of it is kept. `ManagedBuffer`'s
/// `header` property would do without a closure, but it is a stored property of a class, whose every access
/// from this module is checked for exclusivity at run time (about 40 instructions); the tree's queue keeps
/// the accesses apart instead (the node's note in ``StateNode``).
final class StateCache<State>: ManagedBuffer<State, Void> {
    /// A new cache holding `state`.
    static func make(_ state: State) -> StateCache {
        let made = create(minimumCapacity: 0) { _ in state }
        // `create` returns an instance of the class it is called on, typed as `ManagedBuffer`: the cast
        // always succeeds, and runs once per cache.
        guard let cache = made as? StateCache else {
            preconditionFailure("Internal inconsistency: ManagedBuffer.create made a \(type(of: made))")
        }
        return cache
    }

    /// Runs `body` with the state, borrowed for the call.
    @inline(__always)
    func read<Result>(_ body: (borrowing State) -> Result) -> Result {
        // Lent from an `inout` binding, by address: `pointee` read as a value is copied into a temporary
        // and destroyed after the call in code generic over the state (about 16 instructions through
        // the state's value witnesses), where the node's code runs unspecialised.
        modify { state in body(state) }
    }

    /// Whether the `Bool` `byteOffset` bytes into the state is `true`: an after-reduce step's flag
    /// (``TreeNode/afterReduceStepsHaveWork(_:)``), read without a closure of the caller's around it.
    @inline(__always)
    func bool(atByteOffset byteOffset: Int) -> Bool {
        withUnsafeMutablePointerToHeader {
            // Safety: the caller passes the offset of a `Bool` stored inline in the state (an after-reduce
            // step's flag, checked to lie inside its value when the step was added); read in place.
            UnsafeRawPointer($0).load(fromByteOffset: byteOffset, as: Bool.self)
        }
    }

    /// Runs `body` with the state, to mutate in place for the call.
    @inline(__always)
    func modify<Result>(_ body: (inout State) -> Result) -> Result {
        withUnsafeMutablePointerToHeader { body(&$0.pointee) }
    }
}
