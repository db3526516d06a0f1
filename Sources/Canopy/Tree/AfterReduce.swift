/// A step of the after-reduce stage: it gets the value it watches in a node's own state, in place, right
/// after the node's reducer ran (`CanopyPersistence` drains change sets this way).
// Safety: the pointer is valid only during the step's call: `AfterReduce.run` makes it from the state's
// address, which the node's reducer holds for that call.
package typealias AfterReduceStep<Value> = @Sendable (UnsafeMutablePointer<Value>) -> Void

/// The after-reduce stage: steps that run on part of a node's own state right after the node's reducer,
/// on the tree's queue, before the walk down publishes the state.
///
/// A node keeps its steps apart from its reducer and runs them after it, when it has any, so nodes without
/// steps pay one test. A step reaches its
/// value by a byte offset that `MemoryLayout.offset(of:)` found for a key path of stored properties once,
/// when the step was added: no key path is applied per action. A `Bool` flag inside the value says
/// whether the step has anything to do, so a reduce that left the value alone costs one load.
struct AfterReduce<Value>: Sendable {
    /// Where the value lies in the node's own state, in bytes.
    let offset: Int
    /// Where the flag lies in the value, in bytes.
    let flag: Int
    let step: AfterReduceStep<Value>

    /// Runs the step on the value inside the node's own state, which starts at `state`, if its flag is
    /// set.
    ///
    /// - Parameter state: The address of the node's own state, valid for the whole call.
    // Safety: `state` is the address of the node's own state, valid for the call (see above).
    @inline(__always)
    func run(at state: UnsafeMutableRawPointer) {
        let value = state.advanced(by: offset)
        // Safety: `offset` is `MemoryLayout.offset(of:)` of a writable key path from the node's own state
        // to a `Value` (`StateNode.ownStateOffset(of:)`), so a `Value` is stored inline there; `flag` is
        // the offset of a `Bool` stored inline in `Value` (checked to lie inside it when added).
        if value.load(fromByteOffset: flag, as: Bool.self) {
            step(value.assumingMemoryBound(to: Value.self))
        }
    }
}
