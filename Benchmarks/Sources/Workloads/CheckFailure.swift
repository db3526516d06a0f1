/// A workload's result did not match what its actions imply.
public struct CheckFailure: Error, CustomStringConvertible {
    /// The workload's short name, such as `W1`.
    public let workload: String
    /// The implementation whose result was wrong.
    public let system: System
    /// What was found and what was expected.
    public let message: String

    /// A one-line report.
    public var description: String {
        "\(workload) \(system.rawValue): check failed: \(message)"
    }
}

/// Throws a ``CheckFailure`` unless `condition` holds.
func check(
    _ condition: Bool,
    _ workload: String,
    _ system: System,
    _ message: @autoclosure () -> String
) throws(CheckFailure) {
    guard condition else {
        throw CheckFailure(workload: workload, system: system, message: message())
    }
}
