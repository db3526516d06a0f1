/// What a ``Subscription`` closes when it is cancelled: the gate its handler's calls pass through.
///
/// Once ``close()`` returns (on any thread but one inside a call of the handler), no call is in progress
/// and none starts afterwards. ``CallGate`` serves handlers called on the tree's queue, one at a time;
/// ``DeliveryGate`` serves handlers called on queues of the subscriber's choice. Both are classes, so a
/// token holds its gate in two words rather than a five-word existential box.
protocol HandlerGate: AnyObject, Sendable {
    /// Whether the gate has started closing; read by ``Subscription/isCancelled``.
    var isClosed: Bool { get }

    /// Closes the gate and waits out the calls in progress on other threads. Closing again does
    /// nothing more.
    ///
    /// - Returns: Whether this call closed the gate (`false` when it was closed already).
    @discardableResult
    func close() -> Bool
}

extension CallGate: HandlerGate {}
