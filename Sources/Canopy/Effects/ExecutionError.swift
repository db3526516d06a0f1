#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

extension Effect {
    /// The error a failed ``Effect/State`` reports when it does not hold the caller's error: after
    /// `fail(nil)` or `retryOrFailWith(nil)`, and after decoding.
    ///
    /// Its `localizedDescription` is the recorded description: "Unknown effect execution error" for
    /// `nil`, otherwise the description of the original error.
    ///
    /// ```swift
    /// let decoded = try JSONDecoder().decode(Effect.State.self, from: data)
    /// print((decoded.error as? Effect.ExecutionError)?.description ?? "")
    /// ```
    public struct ExecutionError: LocalizedError, Hashable, Sendable, CustomStringConvertible {
        /// The description of the failure.
        public let description: String

        /// Creates an error with `description`.
        ///
        /// - Parameter description: What went wrong.
        public init(description: String) {
            self.description = description
        }

        /// The description, for `localizedDescription`.
        public var errorDescription: String? { description }

        static let unknown = ExecutionError(description: "Unknown effect execution error")

        /// The text an encoded state keeps for `error`: a `LocalizedError`'s `errorDescription` when it
        /// has one, otherwise the platform's description of the error.
        static func describe(_ error: any Error) -> String {
            #if canImport(FoundationEssentials)
            if let description = (error as? any LocalizedError)?.errorDescription {
                return description
            }
            return String(describing: error)
            #else
            return error.localizedDescription
            #endif
        }
    }
}
