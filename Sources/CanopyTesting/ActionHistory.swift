import Canopy

/// The actions a test store's tree reduced, each with the tested store's state before and after it.
///
/// Fed on the tree's queue: ``rootReduced(_:)`` by the root reducer (every action of the tree reaches
/// it), ``observed(_:)`` by an observer of the tested store, which runs after the action was reduced
/// and published. An action's entry is complete when the next one starts, or at ``complete()``.
/// Read from the test through the lock.
final class ActionHistory<State: Sendable, Action: Sendable>: Sendable {
    struct Entry: Sendable {
        let action: Action
        let before: State
        let after: State
    }

    private struct Pending {
        let action: Action
        let isSent: Bool
        let before: State
    }

    private struct Storage {
        /// The tested store's latest state; `nil` until the store's observer first ran.
        var state: State?
        var isSending = false
        var pending: Pending?
        /// Actions effects (or anything but the test) sent, not yet asserted.
        var received: [Entry] = []
        /// The entry of the action the test sent last.
        var sent: Entry?

        mutating func complete() {
            guard let pending, let state else { return }
            self.pending = nil
            let entry = Entry(action: pending.action, before: pending.before, after: state)
            if pending.isSent {
                sent = entry
            } else {
                received.append(entry)
            }
        }
    }

    private let storage = LockedValue(Storage())

    /// The tested store's latest state.
    var state: State? {
        storage.withLock { $0.state }
    }

    // MARK: On the tree's queue

    func rootReduced(_ action: any Sendable) {
        guard let action = action as? Action else {
            preconditionFailure(
                "TestStore records actions of type \(Action.self), but the tree's root reduced a \(type(of: action))"
            )
        }
        storage.withLock { storage in
            storage.complete()
            // Actions reduced before the tested store was first observed (while the tree was built) are
            // not the test's business.
            guard let state = storage.state else { return }
            storage.pending = Pending(action: action, isSent: storage.isSending, before: state)
        }
    }

    func observed(_ state: State) {
        storage.withLock { $0.state = state }
    }

    /// Completes the entry of the last action.
    func complete() {
        storage.withLock { $0.complete() }
    }

    /// Marks the actions reduced until ``endSend()`` as sent by the test.
    func beginSend() {
        storage.withLock { storage in
            storage.complete()
            storage.isSending = true
        }
    }

    /// Returns the entry of the action sent since ``beginSend()``.
    func endSend() -> Entry? {
        storage.withLock { storage in
            storage.complete()
            storage.isSending = false
            defer { storage.sent = nil }
            return storage.sent
        }
    }

    // MARK: From the test

    /// Removes and returns the oldest received entry.
    func popReceived() -> Entry? {
        storage.withLock { storage in
            storage.received.isEmpty ? nil : storage.received.removeFirst()
        }
    }

    /// Removes and returns every received entry.
    func takeReceived() -> [Entry] {
        storage.withLock { storage in
            defer { storage.received.removeAll() }
            return storage.received
        }
    }

    var receivedCount: Int {
        storage.withLock { $0.received.count }
    }
}
