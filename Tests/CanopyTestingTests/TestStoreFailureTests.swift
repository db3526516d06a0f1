import Canopy
import Testing

@testable import CanopyTesting

/// Each kind of mismatch fails, with a message that says what differs, at the line of the call.
@Suite struct TestStoreFailureTests {
    /// Whether `issue` was recorded at `line` of this file with a message containing each of `parts`.
    private func issue(_ issue: Issue, isAt line: Int, saying parts: String...) -> Bool {
        let message = issue.comments.map(\.rawValue).joined(separator: "\n")
        return issue.sourceLocation?.line == line
            && issue.sourceLocation?.fileName == "TestStoreFailureTests.swift"
            && parts.allSatisfy(message.contains)
    }

    @Test func aWrongExpectationShowsOnlyTheDifferingLines() async {
        let store = TestStore.search()
        store.exhaustivity = .off
        let line = #line + 2
        await withKnownIssue {
            await store.send(.setQuery("milk")) { $0.phase = .searching }
        } matching: { issue in
            let message = issue.comments.map(\.rawValue).joined(separator: "\n")
            return issue.sourceLocation?.line == line
                && message == """
                    State after send(.setQuery("milk")) differs from the expected state (- expected, + actual):
                      Search(
                        query: "milk"
                    -   phase: .searching
                    +   phase: .debouncing
                        results: []
                      )
                    """
        }
    }

    @Test func aChangeTheClosureDoesNotStateFails() async {
        let store = TestStore.search()
        let line = #line + 2
        await withKnownIssue {
            await store.send(.setQuery("milk")) { $0.query = "milk" }
        } matching: { issue in
            self.issue(issue, isAt: line, saying: "- expected", "-   phase: .idle", "+   phase: .debouncing")
        }
        store.exhaustivity = .off
    }

    @Test func aStateChangeWithoutAClosureFails() async {
        let store = TestStore(0, reducer: { (state: inout Int, action: Int) in state += action })
        let line = #line + 2
        await withKnownIssue {
            await store.send(1)
        } matching: { issue in
            self.issue(issue, isAt: line, saying: "State after send(1)", "- 0", "+ 1")
        }
    }

    @Test func receivingAnotherActionFails() async {
        let store = TestStore.search()
        await store.startSearch("milk")
        let line = #line + 2
        await withKnownIssue {
            await store.receive(.finished("milk", []))
        } matching: { issue in
            self.issue(
                issue,
                isAt: line,
                saying: "Received an unexpected action:",
                "expected: .finished(\"milk\", [])",
                "received: .started(\"milk\")"
            )
        }
        store.exhaustivity = .off
    }

    @Test func receivingNothingWithinTheTimeoutFails() async {
        let store = TestStore.search()
        await store.startSearch("milk")
        let line = #line + 2
        await withKnownIssue {
            await store.receive(.started("milk"), timeout: Search.debounce / 2)
        } matching: { issue in
            self.issue(
                issue,
                isAt: line,
                saying: "Expected to receive .started(\"milk\"), but no action arrived within 0.15 s of test time",
                "(1 effect still running)"
            )
        }
        #expect(store.now == 0)  // the next work was due after the timeout: the clock did not move
        store.exhaustivity = .off
    }

    @Test func sendingBeforeAssertingReceivedActionsFails() async {
        let store = TestStore.search()
        await store.startSearch("milk")
        await store.advance(by: Search.debounce)
        let line = #line + 2
        await withKnownIssue {
            await store.send(.setQuery("")) {
                $0.query = ""
                $0.phase = .idle
            }
        } matching: { issue in
            self.issue(
                issue,
                isAt: line,
                saying: "Must handle 1 received action before sending .setQuery(\"\"):",
                "• .started(\"milk\")"
            )
        }
        await store.finish()
    }

    @Test func finishingWithReceivedActionsNotAssertedFails() async {
        let store = TestStore.search()
        await store.startSearch("bike")
        await store.advance(by: Search.debounce + Search.latency)
        let line = #line + 2
        await withKnownIssue {
            await store.finish()
        } matching: { issue in
            self.issue(
                issue,
                isAt: line,
                saying: "2 received actions not asserted at the end of the test:",
                "• .started(\"bike\")",
                "• .finished(\"bike\", [\"bike\"])"
            )
        }
    }

    @Test func finishingWhileAnEffectRunsFails() async {
        let store = TestStore.search()
        await store.startSearch("bike")
        let line = #line + 2
        await withKnownIssue {
            await store.finish()
        } matching: { issue in
            self.issue(issue, isAt: line, saying: "1 effect still running at the end of the test")
        }
    }

    @Test func releasingAStoreWithLeftoversFailsAtItsCreation() async {
        let line = #line + 2
        await withKnownIssue {
            let store = TestStore(Search(), reducer: { $0.reduce($1) }, effects: Search.attach)
            await store.send(.setQuery("bike")) {
                $0.query = "bike"
                $0.phase = .debouncing
            }
        } matching: { issue in
            self.issue(issue, isAt: line, saying: "1 effect still running at the end of the test")
        }
    }

    @Test func aThrowingClosureFails() async {
        struct Unexpected: Error {}
        let store = TestStore(0, reducer: { (state: inout Int, action: Int) in state += action })
        let line = #line + 2
        await withKnownIssue {
            await store.send(1) { _ in throw Unexpected() }
        } matching: { issue in
            self.issue(issue, isAt: line, saying: "The assertion closure of send(1) threw")
        }
    }

    @Test func anEffectBusyWithoutTheClockFailsAfterABoundedRealWait() async {
        // The effect awaits a stream that never yields: busy, and not on the test clock. Releasing the
        // store cancels it, which ends the loop.
        let (stream, continuation) = AsyncStream<Int>.makeStream()
        let store = TestStore(
            0,
            reducer: { (state: inout Int, action: Int) in state = action },
            effects: { store, _ in
                store.effect(onChange: \.self, on: effectQueue) { _, _ in
                    Effect {
                        for await _ in stream {}
                    }
                }
            }
        )
        defer { continuation.finish() }
        store.realTimeLimit = .milliseconds(200)
        store.exhaustivity = .off
        await store.send(1) { $0 = 1 }
        let line = #line + 2
        await withKnownIssue {
            await store.receive(2)
        } matching: { issue in
            self.issue(issue, isAt: line, saying: "an effect was still busy after 0.2 seconds of real time")
        }
    }
}
