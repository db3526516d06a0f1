/// The consumer of a subscription's props, with the isolation it needs.
enum PropsObserver<Props>: Sendable {
    /// A closure isolated to the main actor: the configuration must deliver on the main actor.
    case mainActor(@MainActor @Sendable (Props) -> Void)
    /// A closure that runs wherever the configuration delivers.
    case anywhere(@Sendable (Props) -> Void)
}
