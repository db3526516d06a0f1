#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// A callback that receives every state of a store, on the store's queue.
///
/// Two observers are the same observer when their ``id`` is the same: subscribing the same observer
/// again does not add a second copy, it only sends the current state again.
///
/// ```swift
/// let observer = Observer<Counter> { state in
///     print(state.count)
///     return state.count < 10 ? .active : .dead
/// }
/// store.subscribe(observer: observer)
/// ```
public struct Observer<State>: Hashable, Sendable {
    /// The closure an observer runs for each state.
    public typealias StateHandler = @Sendable (State) -> ObserverStatus

    /// The observer's identity.
    public let id: UUID

    @usableFromInline
    let observe: StateHandler

    /// Creates an observer.
    ///
    /// - Parameters:
    ///   - id: The observer's identity; observers with the same id replace each other.
    ///   - observe: Receives each state on the store's queue and says whether to keep observing.
    public init(id: UUID = UUID(), observe: @escaping StateHandler) {
        self.id = id
        self.observe = observe
    }

    /// Returns whether two observers have the same ``id``.
    public static func == (lhs: Observer<State>, rhs: Observer<State>) -> Bool {
        lhs.id == rhs.id
    }

    /// Hashes the observer's ``id``.
    ///
    /// - Parameter hasher: The hasher to feed.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(id)
    }
}
