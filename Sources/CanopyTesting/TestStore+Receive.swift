#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

extension TestStore {
    /// Asserts that the next action an effect sent is `expected`, and checks the state after it.
    ///
    /// When no action has arrived yet, the store lets the effects run and moves the test clock to the
    /// next piece of pending work, again and again, until an action arrives or `timeout` seconds of
    /// test time have passed (a failure). Real time is never waited for longer than it takes the
    /// effects to settle, and never without a bound.
    ///
    /// With ``Exhaustivity/off``, received actions that are not `expected` are skipped.
    ///
    /// ```swift
    /// await store.send(.setQuery("milk")) { $0.phase = .debouncing }
    /// await store.receive(.started(serial: 1)) { $0.phase = .searching }  // after the debounce
    /// ```
    ///
    /// - Parameters:
    ///   - expected: The action that should arrive next.
    ///   - timeout: Seconds of test time to wait; ``receiveTimeout`` by default.
    ///   - assert: Turns the state before the action into the expected state after it, as in
    ///     ``send(_:assert:fileID:filePath:line:column:)``.
    ///   - fileID: The call site, where failures point (leave the default).
    ///   - filePath: See `fileID`.
    ///   - line: See `fileID`.
    ///   - column: See `fileID`.
    public func receive(
        _ expected: Action,
        timeout: TimeInterval? = nil,
        assert: ((_ state: inout State) throws -> Void)? = nil,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) async where Action: Equatable {
        await receive(
            described: StateDump.line(of: expected),
            matching: { $0 == expected },
            timeout: timeout,
            assert: assert,
            at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
        )
    }

    /// Asserts that the next action an effect sent embeds `expected`, and checks the state after it.
    ///
    /// For actions that are not `Equatable` as a whole: `extract` returns the part to compare (a
    /// feature's action inside the app's action, say), or `nil` when the action is of another kind.
    ///
    /// ```swift
    /// extension AppAction {
    ///     var search: SearchAction? { if case .search(let action) = self { action } else { nil } }
    /// }
    /// await store.receive(.started(serial: 1), from: \.search) { $0.phase = .searching }
    /// ```
    ///
    /// - Parameters:
    ///   - expected: The part of the action that should arrive next.
    ///   - extract: Returns the part of an action to compare, or `nil`.
    ///   - timeout: Seconds of test time to wait; ``receiveTimeout`` by default.
    ///   - assert: Turns the state before the action into the expected state after it.
    ///   - fileID: The call site, where failures point (leave the default).
    ///   - filePath: See `fileID`.
    ///   - line: See `fileID`.
    ///   - column: See `fileID`.
    public func receive<Value: Equatable>(
        _ expected: Value,
        from extract: (Action) -> Value?,
        timeout: TimeInterval? = nil,
        assert: ((_ state: inout State) throws -> Void)? = nil,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) async {
        await receive(
            described: StateDump.line(of: expected),
            matching: { extract($0) == expected },
            timeout: timeout,
            assert: assert,
            at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
        )
    }

    /// Asserts that the next action an effect sent satisfies `predicate`, and checks the state after it.
    ///
    /// ```swift
    /// await store.receive(where: { if case .finished = $0 { true } else { false } }) {
    ///     $0.phase = .done
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - predicate: Returns whether an action is the expected one.
    ///   - timeout: Seconds of test time to wait; ``receiveTimeout`` by default.
    ///   - assert: Turns the state before the action into the expected state after it.
    ///   - fileID: The call site, where failures point (leave the default).
    ///   - filePath: See `fileID`.
    ///   - line: See `fileID`.
    ///   - column: See `fileID`.
    public func receive(
        where predicate: (Action) -> Bool,
        timeout: TimeInterval? = nil,
        assert: ((_ state: inout State) throws -> Void)? = nil,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) async {
        await receive(
            described: "an action matching the predicate",
            matching: predicate,
            timeout: timeout,
            assert: assert,
            at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
        )
    }

    private func receive(
        described expected: String,
        matching: (Action) -> Bool,
        timeout: TimeInterval?,
        assert: ((inout State) throws -> Void)?,
        at site: CallSite
    ) async {
        let timeout = timeout ?? receiveTimeout
        precondition(timeout >= 0, "TestStore.receive needs a non-negative timeout, got \(timeout)")
        let deadline = clock.now + timeout
        while true {
            let settled = await settle()
            if let entry = history.popReceived() {
                if matching(entry.action) {
                    check(entry, after: "receive(\(expected))", assert: assert, at: site)
                    return
                }
                guard exhaustivity == .off else {
                    TestFailure.record(
                        "Received an unexpected action:\n  expected: \(expected)\n"
                            + "  received: \(StateDump.line(of: entry.action))",
                        at: site
                    )
                    return
                }
                continue
            }
            guard let next = clock.activity.nextDeadline, next <= deadline else {
                let running = clock.activity.runningCount
                var message =
                    "Expected to receive \(expected), but no action arrived within \(timeout) s of test time"
                if !settled {
                    message += "; an effect was still busy after \(realTimeLimit) of real time"
                } else if running > 0 {
                    message += " (\(Self.count(running, "effect")) still running)"
                }
                TestFailure.record(message, at: site)
                return
            }
            clock.advance(to: next)
        }
    }
}
