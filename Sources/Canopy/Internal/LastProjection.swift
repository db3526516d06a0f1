/// What a ``ProjectionFilter`` remembers: the last projection it let through, or none yet. `Optional`
/// is the one conforming type.
///
/// The filter takes the optional itself as its generic parameter (`ProjectionFilter<State, Value?>`),
/// not the projection's type. Then the filter's metadata carries `Value?`'s, made where the filter is
/// made, in code compiled for the app's types; the filter's `deinit`, compiled once for every type,
/// destroys its memory with it. Declared as `Value?` there, the field's type had to be looked up
/// by hashing on every destroy (about 300 instructions per subscription).
@usableFromInline
protocol LastProjection {
    /// The projection's type.
    associatedtype Projection: Equatable

    /// Nothing remembered yet.
    static var none: Self { get }

    /// Remembers `projection`.
    init(_ projection: Projection)

    /// Whether what is remembered equals `projection`; `false` when nothing is.
    func holds(_ projection: Projection) -> Bool
}

extension Optional: LastProjection where Wrapped: Equatable {
    @inlinable
    func holds(_ projection: Wrapped) -> Bool {
        guard case .some(let last) = self else { return false }
        return last == projection
    }
}
