import Testing

/// A weak reference a test can check after the strong ones are gone.
final class WeakRef<Object: AnyObject>: @unchecked Sendable {
    // Safety: test-only; read after the work that could release the object has been awaited.
    weak var object: Object?

    init(_ object: Object) {
        self.object = object
    }
}
