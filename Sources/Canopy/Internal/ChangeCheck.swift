/// Runs a reducer on a node's own state and tells whether the state changed, for a state type that is
/// `Equatable` plain data: what lets the walk down skip the children of a node whose state an action
/// left as it was, so that an action costs what it changed, not the size of the tree (Docs/StoreTree.md).
///
/// Made where `with(_:reducer:)` or a root initializer is inlined, so, where the state's type is known
/// there, the check is compiled for it: the "before" copy is a plain copy and `==` the type's own, with
/// none of the value witness calls that code generic over the state pays (about 90 instructions per
/// action). One check is shared by every node of the same types.
@usableFromInline
// Safety: Sendable by hand: its one field is a `let` closure that captures nothing mutable (note below).
final class ChangeCheck<Value, Action>: @unchecked Sendable {
    // Safety: `reduce` never changes, and the closure captures nothing but, in generic code, the
    // metatype of the state's type (for its `==`), which is immutable.

    /// Runs `reducer` on `value` with `action`; returns whether `value` changed.
    @usableFromInline
    let reduce: (_ value: inout Value, _ action: Action, _ reducer: Reducer<Value, Action>) -> Bool

    @usableFromInline
    init(reduce: @escaping (inout Value, Action, Reducer<Value, Action>) -> Bool) {
        self.reduce = reduce
    }

    /// The check shared by every node whose state is a `Value` and whose actions are `Action`s, or `nil`
    /// when `Value` is not `Equatable` plain data (a state holding references is not compared: its
    /// "before" copy would make the reducer's in-place mutation copy the storage it shares).
    @inlinable
    static func shared() -> ChangeCheck? {
        SharedPerType.shared(ChangeCheck.self) { make() }
    }

    /// A new check, or `nil` when `Value` is not `Equatable` plain data.
    @inlinable
    static func make() -> ChangeCheck? {
        // Safety: `_isPOD` only asks the runtime whether `Value` is plain data (no references to share).
        guard _isPOD(Value.self), let equatable = Value.self as? any Equatable.Type else {
            return nil
        }
        return make(opening: equatable)
    }

    /// A new check for `Compared`, opened from `Value.self`, so the same type: the cast at the end
    /// always succeeds. Where `Value` is known, the compiler resolves the opening and the cast, and
    /// compiles the closure for the type.
    @inlinable
    static func make<Compared: Equatable>(opening _: Compared.Type) -> ChangeCheck? {
        let check = ChangeCheck<Compared, Action> { value, action, reducer in
            let before = value
            reducer(&value, action)
            return before != value
        }
        return check as? ChangeCheck
    }
}
