/// What ``Dependencies`` and ``SharedStores`` share: the app-wide values, written by the app's set-up
/// and guarded by a lock, and the values of the innermost ``DependencyScope``, which win over them.
protocol EntryContainer: Sendable {
    /// The app-wide values. Only ``write(_:_:)`` changes them, under the lock.
    static var live: LockedValue<Self> { get }

    /// How call sites name a write, for the message of a misplaced one.
    static var writeSyntax: String { get }

    /// Where a scope keeps this container's values; `nil` there when the scope does not override it.
    static var scoped: WritableKeyPath<DependencyScope, Self?> { get }
}

extension EntryContainer {
    /// The values in force here: the innermost scope's if it overrides this container, else the app's.
    static var current: Self {
        if let values = DependencyScope.current?[keyPath: scoped] {
            return values
        }
        return live.withLock { $0 }
    }

    /// Reads one entry. The entry's getter runs after the lock is released.
    static func read<Value>(_ keyPath: KeyPath<Self, Value>) -> Value {
        current[keyPath: keyPath]
    }

    /// Sets one entry app-wide. The entry's setter runs under the lock, so concurrent writes of
    /// different entries are not lost; it must only forward to the key subscript.
    static func write<Value>(_ keyPath: WritableKeyPath<Self, Value>, _ newValue: Value) {
        if let scope = DependencyScope.current {
            precondition(
                scope[keyPath: scoped] == nil,
                "\(writeSyntax) inside a scoped override sets the app-wide value, which the scope does not see; "
                    + "set the value in the scope's update closure instead"
            )
        }
        live.withLock { $0[keyPath: keyPath] = newValue }
    }
}
