/// A step of the after-reduce stage: it gets the value it watches in a node's own state, in place, right
/// after the node's reducer ran (`CanopyPersistence` drains change sets this way).
package typealias AfterReduceStep<Value> = @Sendable (inout Value) -> Void

/// One step of the after-reduce stage: it runs on part of a node's own state right after the node's
/// reducer, on the tree's queue, before the walk down publishes the state.
///
/// A node keeps its steps apart from its reducer and runs them after it, when it has any
/// (``AfterReduceSteps``), so nodes without steps pay one test. A step reaches its value by a byte offset
/// that `MemoryLayout.offset(of:)` found for a key path of stored properties once, when the step was
/// added: no key path is applied per action (a child's key path starts at the pair of its parent's
/// state and its own, which the child does not store). A `Bool` flag inside the value says whether the
/// step has anything to do, so a reduce that left the value alone costs one load.
struct AfterReduce<Value>: Sendable {
    /// Where the value lies in the node's own state, in bytes.
    let offset: Int
    /// Where the flag lies in the value, in bytes.
    let flag: Int
    let step: AfterReduceStep<Value>

    /// Runs the step on the value inside `own`, the node's own state, if its flag is set.
    func run<Own>(on own: inout Own) {
        withUnsafeMutableBytes(of: &own) { bytes in
            precondition(
                offset >= 0 && offset + MemoryLayout<Value>.size <= bytes.count,
                "Internal inconsistency: an after-reduce value lies outside its node's state"
            )
            // Safety: `offset` is `MemoryLayout.offset(of:)` of a writable key path from the node's own
            // state to a `Value` (`StateNode.ownStateOffset(of:)`), so a `Value` is stored inline there,
            // inside `bytes` (checked above); `flag` is the offset of a `Bool` stored inline in `Value`
            // (checked when the step was added). The address is used only during this call.
            let value = bytes.baseAddress! + offset
            if value.load(fromByteOffset: flag, as: Bool.self) {
                // Safety: a `Value` is stored inline at `value` (above), in place for the step's call.
                step(&value.assumingMemoryBound(to: Value.self).pointee)
            }
        }
    }
}

/// The after-reduce steps of one node, whose own state is an `Own`, run in the order they were added.
///
/// Kept in the node's box of extras as an `AnyObject` (the box does not know the state's type) and cast
/// back, with a checked cast, only when a step has work.
final class AfterReduceSteps<Own>: Sendable {
    /// Runs every step on the node's own state.
    let run: @Sendable (inout Own) -> Void

    init(_ run: @escaping @Sendable (inout Own) -> Void) {
        self.run = run
    }
}
