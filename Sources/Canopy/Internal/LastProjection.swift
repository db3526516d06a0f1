public import Synchronization

/// Where a ``ProjectionFilter`` keeps the last projection it let through, so that every access is
/// exclusive by construction, without the runtime's exclusivity check (about 90 instructions): atomics
/// for an `Int` or a `Bool` (``AtomicLastProjection``), a `Mutex` of it for any other
/// projection (`Mutex<RememberedProjection<Value>>`; the lock costs about 22 instructions, and is never
/// contended: only the subscribing tree's queue takes it).
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

/// The last projection a ``ProjectionFilter`` let through, when it is an `Int` or a `Bool` (``fits``),
/// in two atomics: the value, and whether there is one yet. Only the subscribing tree's queue uses it,
/// one state at a time, and the queue orders its uses, so relaxed loads and stores suffice: each is a
/// plain move, where a lock costs about 20 instructions.
///
/// Generic over the projection, not made for `Int`, so that the filter's projection needs no cast: the
/// casts below are to the type it is, and compiled for that type (where the equating is made), they
/// cost nothing.
@usableFromInline
struct AtomicLastProjection<Projection: Equatable & Sendable>: LastProjectionCell, ~Copyable {
    @usableFromInline
    let last = Atomic<Int>(0)
    @usableFromInline
    let isSet = Atomic<Bool>(false)

    /// Whether the cell can hold a `Projection`: an `Int` or a `Bool`.
    @inlinable
    static var fits: Bool {
        Projection.self == Int.self || Projection.self == Bool.self
    }

    @inlinable
    init() {}

    @inlinable
    func repeats(_ projection: Projection) -> Bool {
        let value = Self.value(of: projection)
        if isSet.load(ordering: .relaxed), last.load(ordering: .relaxed) == value {
            return true
        }
        last.store(value, ordering: .relaxed)
        isSet.store(true, ordering: .relaxed)
        return false
    }

    /// `projection` as the cell keeps it.
    @inlinable
    static func value(of projection: Projection) -> Int {
        if let value = projection as? Int {
            return value
        }
        if let value = projection as? Bool {
            return value ? 1 : 0
        }
        preconditionFailure("Internal inconsistency: a \(Projection.self) in an atomic projection cell")
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
