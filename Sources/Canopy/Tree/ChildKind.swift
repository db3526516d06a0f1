/// What every child of the same types shares: how its state is made of its parent's state and its own
/// (``compose``), and how its reducer says whether its own state changed (``changeCheck``).
///
/// Made where `with(_:reducer:)` is inlined, so that both are compiled for the concrete types, and
/// shared by every child of those types (``SharedPerType``): a child keeps one reference to it rather
/// than a closure and a check of its own (8 bytes less for every child store that W4 counts). The
/// first child made for a set of types decides for all of them: a `with(_:reducer:)` inlined into code
/// that is generic over the state makes a composition that is correct but slower, which the children
/// of the same types made later from specialised code then share.
@usableFromInline
final class ChildKind<ParentState: Sendable, Local: Sendable, State: Sendable, Action: Sendable>: Sendable {
    /// Makes the child's state, hands it to the observers, and writes it into the cache if there is one.
    let compose: Compose<ParentState, Local, State>
    /// Runs the reducer and says whether `local` changed, when `Local` is `Equatable` plain data.
    let changeCheck: ChangeCheck<Local, Action>?

    @usableFromInline
    init(compose: @escaping Compose<ParentState, Local, State>, changeCheck: ChangeCheck<Local, Action>?) {
        self.compose = compose
        self.changeCheck = changeCheck
    }

    /// The kind shared by every child of these types: made now, of `compose` and a change check made
    /// here, if none was made before.
    @inlinable
    static func shared(compose: @escaping Compose<ParentState, Local, State>) -> ChildKind {
        let kind = SharedPerType.shared(ChildKind.self) {
            ChildKind(compose: compose, changeCheck: ChangeCheck<Local, Action>.make())
        }
        guard let kind else {
            preconditionFailure("Internal inconsistency: no kind kept for \(ChildKind.self)")
        }
        return kind
    }
}
