import Dispatch

/// Where a subscription's props go once they are computed.
enum PropsDelivery<Props>: Sendable {
    /// Call the closure on the main queue, isolated to the main actor.
    case mainActor(@MainActor @Sendable (Props) -> Void)
    /// Call the closure on `queue`.
    case queue(DispatchQueue, @Sendable (Props) -> Void)
}
