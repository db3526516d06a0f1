/// What every child of the same types shares: how its state is made of its parent's state and its own
/// (``compose``), and how its reducer says whether its own state changed (``changeCheck``).
///
/// Made where `with(_:reducer:)` is inlined (``pairing()``), so that both are compiled for the concrete
/// types, and shared by every child of those types (``SharedPerType``): a child keeps one reference to
/// it rather than a closure and a check of its own (16 bytes less for every child store that W4
/// counts). The first child made for a set of types decides for all of them: a `with(_:reducer:)` inlined into code
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
        // Made only by `pairing()`, once per set of types: `SharedPerType` keeps the first one made for
        // good, so no other code may make one with another composition.
        self.compose = compose
        self.changeCheck = changeCheck
    }
}

extension ChildKind where State == (ParentState, Local) {
    /// The kind shared by every child made with `with(_:reducer:)` of these types, whose state pairs the
    /// parent's state with the local one: made here, where this call is inlined, if none was made before.
    @inlinable
    static func pairing() -> ChildKind {
        let kind = SharedPerType.shared(ChildKind.self) {
            ChildKind(
                compose: { parent, local, cache, isInitialized, observers, list in
                    // Safety: the child passes its parent's current state, its own local state, its cache
                    // and its list of observers, all valid for the call (`ChildNode.composeAndNotify()`).
                    guard let cache else {
                        // A child without a cache (a leaf): its observers get the pair as it is made.
                        return observers.notify((parent.pointee, local), list: list)
                    }
                    if isInitialized {
                        cache.pointee = (parent.pointee, local)
                    } else {
                        cache.initialize(to: (parent.pointee, local))
                    }
                    return observers.notify(cache.pointee, list: list)
                },
                changeCheck: ChangeCheck<Local, Action>.make()
            )
        }
        guard let kind else {
            preconditionFailure("Internal inconsistency: no kind kept for \(ChildKind.self)")
        }
        return kind
    }
}
