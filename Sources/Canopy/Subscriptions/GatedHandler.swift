#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The observer behind `subscribe(removeStateDuplicates:_:)` and `states(removeDuplicates:)`: it passes
/// each state through the filter, if any, and on to the handler, both inside the gate, so a cancel from
/// another thread waits out a call in progress and no call starts after it returns.
///
/// A class rather than a closure's captures: its `let`s are read from the object the observer closure
/// holds, without the copies a generic closure context makes on each call.
final class GatedHandler<State>: Sendable {
    let gate: CallGate
    let filter: (@Sendable (State) -> Bool)?
    let handler: @Sendable (State) -> Void

    init(gate: CallGate, filter: (@Sendable (State) -> Bool)?, handler: @escaping @Sendable (State) -> Void) {
        self.gate = gate
        self.filter = filter
        self.handler = handler
    }

    /// The node's observer for this handler, with identity `id`.
    func observer(id: UUID) -> Observer<State> {
        Observer(id: id) { self.observe($0) }
    }

    /// On the tree's queue: filters `state` and calls the handler with it, unless the gate is closed.
    @inline(__always)
    func observe(_ state: State) -> ObserverStatus {
        let called = gate.withCall {
            if filter?(state) ?? true {
                handler(state)
            }
        }
        return called ? .active : .dead
    }
}
