// Safety: the result is unretained; the contract below says who keeps it alive (the caller).
extension Unmanaged {
    /// The reference stored in `reference`, read in place and unretained, or `nil`.
    ///
    /// Read from a stored property as a value, a reference is retained and released around its use; taken
    /// `inout`, an exclusive access, it is borrowed where it is stored. The caller keeps the owner of the
    /// property alive, and nothing replaces the reference, while it uses the result.
    // Safety: the caller holds the owner of `reference` and replaces nothing while it uses the result.
    @inline(__always)
    static func borrowing(_ reference: inout Instance?) -> Unmanaged? {
        guard let reference else { return nil }
        return .passUnretained(reference)
    }
}
