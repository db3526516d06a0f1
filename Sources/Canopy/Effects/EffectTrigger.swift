#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Turns each state of a store into the runs an effect operator wants: one per key, for as long as the
/// key stays requested.
///
/// A trigger is a value, kept on the store's queue by its ``EffectRunner``; triggers that compare a
/// state with the previous one (toggle, on-change) remember what they need in their own fields.
protocol EffectTrigger<State>: Sendable {
    associatedtype State
    associatedtype Key: Hashable & Sendable
    associatedtype Requests: Collection<EffectRequest<Key>>

    /// On the store queue: the runs `state` asks for, in the order they should start.
    mutating func requests(for state: State) -> Requests
}

/// One run an effect operator wants: its identity, and how long to wait before it starts.
struct EffectRequest<Key: Hashable & Sendable>: Hashable, Sendable {
    let key: Key
    let delay: TimeInterval
}

/// No request or one, without an array allocation for triggers that never want more than one run.
struct SingleRequest<Key: Hashable & Sendable>: RandomAccessCollection, Sendable {
    let request: EffectRequest<Key>?

    init(_ request: EffectRequest<Key>?) {
        self.request = request
    }

    var startIndex: Int { 0 }

    var endIndex: Int { request == nil ? 0 : 1 }

    subscript(position: Int) -> EffectRequest<Key> {
        guard position == 0, let request else {
            preconditionFailure("Internal inconsistency: SingleRequest index \(position) out of range")
        }
        return request
    }
}
