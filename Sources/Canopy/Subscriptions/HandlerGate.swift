/// What a ``Subscription`` closes when it is cancelled: the gate its handler's calls pass through.
///
/// Once ``close()`` returns (on any thread but one inside a call of the handler), no call is in progress
/// and none starts afterwards. ``CallGate`` serves handlers called on the tree's queue, one at a time;
/// ``DeliveryGate`` serves handlers called on queues of the subscriber's choice.
protocol HandlerGate: Sendable {
    /// Set once the gate starts closing; read by ``Subscription/isCancelled`` and by the parts of a
    /// subscription that want to skip work early.
    var flag: CancellationFlag { get }

    /// Closes the gate and waits out the calls in progress on other threads. Closing again does
    /// nothing more.
    func close()
}

extension CallGate: HandlerGate {}
