#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

// The subscription and async entry points every public handle forwards to. All of them may be called
// from any thread, including the tree's own queue, and none of them blocks.
extension StoreHandle {
    /// Adds `observer` on the queue; it receives the current state first.
    ///
    /// - Parameter observer: The observer; one with the same id is not added twice.
    func subscribe(_ observer: Observer<State>) {
        enqueue { self.addObserver(.id(observer.id), observe: observer.observe, filter: nil) }
    }

    /// Adds an observer that calls `observe` on the queue, found again through `gate`, a gate of this
    /// handle's (``callGate()``): ``CallGate/enqueueRemoval()`` removes it.
    func subscribe(through gate: CallGate, _ observe: @escaping Observer<State>.StateHandler) {
        enqueue { self.addObserver(.gate(gate), observe: observe, filter: nil) }
    }

    /// Adds an observer that calls `handler` until the returned token is cancelled or released.
    ///
    /// The node's observer is the dedup check itself, made where the equating was made: a duplicate
    /// costs that check and nothing else. A check that compares an `Int` or a `Bool` projection
    /// (``Equating/makeFilter``) runs in place in the loop of the node's list, when the observer is in
    /// one (``ObserverRecord``), and is otherwise called as the observer's closure, as any other check is
    /// (``Equating/makeCheck``): a child's first observer is in its cell. Only a state that passes goes through
    /// the token's gate to `handler`, so a cancel from another thread waits out a call in progress and
    /// no call starts after it returns. A projecting equating's check holds the gate and the handler
    /// itself (``AtomicProjectionFilter``, ``ProjectionFilter``); otherwise a closure around the gate
    /// follows the check. The gate also holds the node's link, which does not keep the node
    /// (``NodeLink/nodeIfInTree``), and the observer's slot in the node (``CallGate/slot``), to remove
    /// the observer on cancel with no search; the handler lives in the node's observer only.
    func subscription(
        removeDuplicates equating: Equating<State>?,
        _ handler: @escaping @Sendable (State) -> Void
    ) -> Subscription {
        let gate = callGate()
        let observe: @Sendable (State) -> ObserverStatus
        // The choice `Equating.check(gate:handler:)` makes, written out because this path keeps the
        // filter too: returned beside the closure, as a tuple, it cost a lookup of the tuple's metadata
        // in this generic code, about 500 instructions per subscription.
        let filter = equating?.makeFilter?(gate, handler)
        if let filter {
            observe = filter.observer
        } else if let check = equating?.makeCheck?(gate, handler) {
            observe = check
        } else {
            // Not `equating.map`: its generic result would wrap the check in two reabstraction thunks,
            // called for every state.
            let deliver: @Sendable (State) -> ObserverStatus = { state in
                gate.withCall { handler(state) } ? .active : .dead
            }
            if let equating {
                observe = equating.predicateCheck(passed: deliver)
            } else {
                observe = deliver
            }
        }
        // The node makes the observer: each place that handles an `Observer<State>` here, in code generic
        // over the handle, looks up its metadata (a hashed lookup of some 300 instructions).
        enqueue { self.addObserver(.gate(gate), observe: observe, filter: filter) }
        return Subscription(gate: gate)
    }

    /// Reduces `action` and returns the state right after it, or `nil` when the store is gone.
    ///
    /// The action goes in as `dispatch(_:entry:completion:)` sends one: a handle that accepts it (its
    /// store is alive now) keeps the store in the tree until the action is reduced, even a weak handle
    /// whose store's last handle goes meanwhile (SPEC 2.1).
    func send(_ action: Action) async -> State? {
        await withCheckedContinuation { continuation in
            dispatch(action, entry: EntryContext()) { outcome in
                switch outcome {
                case .reduced(let state):
                    continuation.resume(returning: state)
                case .failed(let error) where error is StoreReleasedError:
                    // Possibly on the caller's thread: the store was gone before the action was accepted.
                    continuation.resume(returning: nil)
                case .blocked, .failed:
                    // On the queue: a middleware stopped the action; the state is as it was.
                    continuation.resume(returning: self.stateIfAlive)
                }
            }
        }
    }

    /// The state once everything enqueued before this call has run, or `nil` when the tree is gone.
    var currentState: State? {
        get async {
            await withCheckedContinuation { continuation in
                let accepted = enqueue { continuation.resume(returning: self.stateIfAlive) }
                if !accepted {
                    continuation.resume(returning: nil)
                }
            }
        }
    }

    /// Every state from now on, starting with the current one; finishes when the node is released.
    func states(removeDuplicates equating: Equating<State>?) -> AsyncStream<State> {
        let (stream, continuation) = AsyncStream.makeStream(of: State.self)
        let finisher = StreamFinisher(continuation)
        let subscription = subscription(removeDuplicates: equating) { state in
            finisher.yield(state)
        }
        continuation.onTermination = { _ in subscription.cancel() }
        return stream
    }
}

/// Finishes a stream when the last reference to it goes, which happens when the node that holds the
/// observer is released.
private final class StreamFinisher<Element: Sendable>: Sendable {
    private let continuation: AsyncStream<Element>.Continuation

    init(_ continuation: AsyncStream<Element>.Continuation) {
        self.continuation = continuation
    }

    deinit {
        continuation.finish()
    }

    func yield(_ element: Element) {
        continuation.yield(element)
    }
}
