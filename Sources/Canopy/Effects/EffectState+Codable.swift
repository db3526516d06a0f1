#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

// The encoded form is flat and stable: `status` (the `Status` raw value), `runID`, the attempt fields
// while in progress, and `error` (a description) when failed. The original error value is not encoded.
extension Effect.State: Codable {
    private enum CodingKeys: String, CodingKey {
        case status
        case runID
        case attempt
        case maxAttempts
        case delay
        case retryPolicy
        case error
    }

    /// Encodes the state; a failure keeps its error's description, not the error value.
    ///
    /// - Parameter encoder: The encoder to write to.
    /// - Throws: What the encoder throws.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(status, forKey: .status)
        try container.encodeIfPresent(runID, forKey: .runID)
        switch phase {
        case .inProgress(let attempt):
            try container.encode(attempt.index, forKey: .attempt)
            try container.encode(attempt.maxAttempts, forKey: .maxAttempts)
            try container.encode(attempt.delay, forKey: .delay)
            try container.encode(attempt.retryPolicy, forKey: .retryPolicy)
        case .failure(let failure):
            try container.encode(failure.description, forKey: .error)
        case .idle, .success, .cancelled:
            break
        }
    }

    /// Decodes a state written by ``encode(to:)``.
    ///
    /// A decoded failure's ``error`` is an ``Effect/ExecutionError`` with the stored description.
    /// Inconsistent data (such as an attempt beyond the maximum) throws a `DecodingError`.
    ///
    /// - Parameter decoder: The decoder to read from.
    /// - Throws: `DecodingError` when data is missing or inconsistent.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let status = try container.decode(Status.self, forKey: .status)
        let runID = try container.decodeIfPresent(UUID.self, forKey: .runID)
        let phase: Phase
        switch status {
        case .idle:
            phase = .idle
        case .inProgress:
            let attempt = Attempt(
                index: try container.decode(Int.self, forKey: .attempt),
                maxAttempts: try container.decode(Int.self, forKey: .maxAttempts),
                delay: try container.decode(TimeInterval.self, forKey: .delay),
                retryPolicy: try container.decodeIfPresent(Effect.RetryPolicy.self, forKey: .retryPolicy)
                    ?? .exponential
            )
            guard attempt.maxAttempts >= 1, (0..<attempt.maxAttempts).contains(attempt.index),
                attempt.delay.isFinite, attempt.delay >= 0, runID != nil
            else {
                throw DecodingError.dataCorruptedError(
                    forKey: .attempt,
                    in: container,
                    debugDescription: "Inconsistent in-progress Effect.State"
                )
            }
            phase = .inProgress(attempt)
        case .success:
            phase = .success
        case .failure:
            phase = .failure(Failure(decodedDescription: try container.decode(String.self, forKey: .error)))
        case .cancelled:
            phase = .cancelled
        }
        self.init(runID: status == .idle ? nil : runID, phase: phase)
    }
}
