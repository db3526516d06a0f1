public import Synchronization

/// Where a ``ProjectionFilter`` keeps the last projection it let through, so that every access is
/// exclusive by construction, without the runtime's exclusivity check (about 90 instructions): a
/// `Mutex` of it (`Mutex<RememberedProjection<Value>>`; the lock costs about 22 instructions, and is
/// never contended: only the subscribing tree's queue takes it). A projection to an `Int` or a `Bool`
/// has a filter of its own, with atomics (``AtomicProjectionFilter``).
///
/// The filter takes the cell itself as its generic parameter
/// (`ProjectionFilter<State, Mutex<RememberedProjection<Value>>>`),
/// not the projection's type. Then the filter's metadata carries the cell's, made where the filter is
/// made, in code compiled for the app's types; the filter's `init` and `deinit`, compiled once for
/// every type, make and destroy the cell with it. Declared as a `Mutex` of the projection there, the field's type
/// had to be looked up by hashing on every subscription, once to make it and once to destroy it
/// (about 1,200 instructions per subscription).
@usableFromInline
protocol LastProjectionCell: ~Copyable, Sendable {
    /// The projection's type.
    associatedtype Projection: Equatable

    /// A cell that remembers nothing yet.
    init()

    /// Whether `projection` equals the projection remembered, which it replaces if not; `false` when
    /// nothing is remembered yet.
    func repeats(_ projection: Projection) -> Bool
}

extension Mutex: LastProjectionCell where Value: LastProjection {
    @usableFromInline
    typealias Projection = Value.Projection

    @inlinable
    init() {
        self.init(Value.none)
    }

    @inlinable
    func repeats(_ projection: Projection) -> Bool {
        withLock { last in
            if last.holds(projection) {
                return true
            }
            last = Value(projection)
            return false
        }
    }
}

/// What a ``LastProjectionCell`` holds: the last projection let through, or none yet
/// (``RememberedProjection`` is the one conforming type).
@usableFromInline
protocol LastProjection: Sendable {
    /// The projection's type.
    associatedtype Projection: Equatable

    /// Nothing remembered yet.
    static var none: Self { get }

    /// Remembers `projection`.
    init(_ projection: Projection)

    /// Whether what is remembered equals `projection`; `false` when nothing is.
    func holds(_ projection: Projection) -> Bool
}

/// The last projection a ``ProjectionFilter`` let through, or `nil` before the first.
@usableFromInline
struct RememberedProjection<Projection: Equatable & Sendable>: LastProjection {
    @usableFromInline
    let last: Projection?

    @inlinable
    static var none: Self { Self(last: nil) }

    @inlinable
    init(last: Projection?) {
        self.last = last
    }

    @inlinable
    init(_ projection: Projection) {
        self.last = projection
    }

    @inlinable
    func holds(_ projection: Projection) -> Bool {
        guard let last else { return false }
        return last == projection
    }
}
