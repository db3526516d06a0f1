/// What a ``Subscription`` holds and cancels: the gate its handler's calls pass through, and what ends
/// the subscription.
///
/// Once ``cancel()`` returns (on any thread but one inside a call of the handler), no call is in
/// progress and none starts afterwards, and the node's observer is on its way out. ``CallGate`` serves
/// handlers called on the tree's queue, one at a time; ``DeliveryGate`` serves handlers called on queues
/// of the subscriber's choice. The token holds one or the other in one word, as an enum of the two
/// classes, and calls it directly; the protocol is the contract both keep.
protocol HandlerGate: AnyObject, Sendable {
    /// Whether the gate has started closing; read by ``Subscription/isCancelled``.
    var isClosed: Bool { get }

    /// Closes the gate, waits out the calls in progress on other threads, and, the first time, ends the
    /// subscription (its observer is removed from the node). Cancelling again does nothing more.
    func cancel()
}
