/// Compares two states, `Equatable` or not, and describes how they differ.
enum StateComparison {
    /// `==` when the state is `Equatable`, otherwise the equality of the two dumps (tuples of states,
    /// for instance, are not `Equatable`).
    static func areEqual<Value>(_ lhs: Value, _ rhs: Value) -> Bool {
        if let lhs = lhs as? any Equatable {
            return isEqual(lhs, rhs)
        }
        return StateDump.lines(of: lhs) == StateDump.lines(of: rhs)
    }

    /// The lines that differ between the dumps of the two states, with some context.
    static func diff<Value>(expected: Value, actual: Value) -> String {
        let expectedLines = StateDump.lines(of: expected)
        let actualLines = StateDump.lines(of: actual)
        guard expectedLines != actualLines else {
            return "  (the dumps are the same, but == is false: check the type's == or a field Mirror cannot see)"
        }
        return LineDiff.render(expected: expectedLines, actual: actualLines)
    }

    private static func isEqual<Value: Equatable>(_ lhs: Value, _ rhs: Any) -> Bool {
        (rhs as? Value) == lhs
    }
}
