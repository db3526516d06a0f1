/// A step of the after-reduce stage: it gets the value it watches in a node's own state, in place, right
/// after the node's reducer ran (`CanopyPersistence` drains change sets this way).
package typealias AfterReduceStep<Value> = @Sendable (UnsafeMutablePointer<Value>) -> Void

/// The after-reduce stage: steps that run on part of a node's own state right after the node's reducer,
/// on the tree's queue, before the walk down publishes the state.
///
/// A node adds a step by wrapping its reducer, so nodes without steps pay nothing. A step reaches its
/// value by a byte offset that `MemoryLayout.offset(of:)` found for a key path of stored properties once,
/// when the step was added: no key path is applied per action.
enum AfterReduce {
    /// Runs `step` on the `Value` that lies `offset` bytes into `base`.
    @inline(__always)
    static func run<Base, Value>(_ step: AfterReduceStep<Value>, on base: inout Base, at offset: Int) {
        withUnsafeMutableBytes(of: &base) { bytes in
            // Safety: `offset` is what `MemoryLayout<Base>.offset(of:)` returned for a writable key path
            // from `Base` to a `Value` (see `StateNode.ownStateOffset(of:)`): a `Value` is stored inline
            // there, inside `base`, which is borrowed for the whole call.
            let value = bytes.baseAddress.unsafelyUnwrapped.advanced(by: offset)
            step(value.assumingMemoryBound(to: Value.self))
        }
    }
}
