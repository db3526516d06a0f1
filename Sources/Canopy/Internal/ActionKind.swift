/// Decides once per action type whether a dispatched value could be an ``AsyncAction``.
///
/// The store asks this when a node is created, so dispatching an action whose type cannot hold an
/// `AsyncAction` costs no dynamic cast.
enum ActionKind {
    static func mayBeAsyncAction<Action>(_ type: Action.Type) -> Bool {
        if type is any AsyncAction.Type { return true }
        // A struct or enum that does not conform can never hold an `AsyncAction`; a class (through a
        // subclass), an existential or an optional can. The first word of a type's metadata is its kind.
        // Safety: a metatype is a pointer to the type's metadata, whose first word (the kind) every Swift
        // type has, per the stable ABI; it is only read.
        let kind = unsafeBitCast(type as Any.Type, to: UnsafePointer<UInt>.self).pointee
        return kind != structMetadataKind && kind != enumMetadataKind
    }

    // Swift ABI metadata kinds (stable since Swift 5 on every platform).
    private static let structMetadataKind: UInt = 0x200
    private static let enumMetadataKind: UInt = 0x201
}
