import CanopyTestSupport
import Testing

@testable import Canopy

/// What the chain decides for one action: order, forward, transform, block, dispatch, throw, and misuse.
@Suite struct MiddlewareChainTests {
    enum Action: Equatable, Sendable {
        case add(Int)
        case reset
        case log(String)
    }

    struct Failure: Error, Equatable, CustomStringConvertible {
        let reason: String
        var description: String { "Failure(\(reason))" }
    }

    /// A middleware that records its name (and the action) in `trail`, then forwards the action.
    private static func recording(_ name: String, _ trail: StateRecorder<String>) -> Middleware<Int, Action> {
        Middleware(name) { action, context in
            trail.record("\(name) before \(action)")
            context.next(action)
            trail.record("\(name) after")
        }
    }

    @Test func middlewaresRunInOrderAndTheLastForwardReachesTheReducers() {
        let trail = StateRecorder<String>()
        let harness = PipelineHarness(["a", "b", "c"].map { Self.recording($0, trail) })
        #expect(harness.run(.add(1), state: 0).summary == "forward(add(1))")
        #expect(
            trail.values == [
                "a before add(1)", "b before add(1)", "c before add(1)", "c after", "b after", "a after",
            ]
        )
    }

    @Test func anEmptyChainForwardsTheAction() {
        let harness = PipelineHarness<Int, Action>([])
        #expect(harness.run(.reset, state: 0).summary == "forward(reset)")
    }

    @Test func aMiddlewareCanForwardADifferentAction() {
        let trail = StateRecorder<String>()
        let double = Middleware<Int, Action>("double") { action, context in
            if case .add(let amount) = action {
                context.next(.add(amount * 2))
            } else {
                context.next(action)
            }
        }
        let harness = PipelineHarness([double, Self.recording("after", trail)])
        #expect(harness.run(.add(3), state: 0).summary == "forward(add(6))")
        #expect(trail.values.first == "after before add(6)")
    }

    @Test func notCallingNextBlocksTheActionAndNamesTheMiddleware() {
        let trail = StateRecorder<String>()
        let guardReset = Middleware<Int, Action>("no reset") { action, context in
            if action != .reset { context.next(action) }
        }
        let harness = PipelineHarness([Self.recording("first", trail), guardReset, Self.recording("last", trail)])
        #expect(harness.run(.reset, state: 0).summary == "blocked(no reset)")
        #expect(trail.values == ["first before reset", "first after"])
        #expect(harness.diagnostics.lines == ["root blocked reset in middleware \"no reset\""])
        #expect(harness.run(.add(1), state: 0).summary == "forward(add(1))")
    }

    @Test func contextShowsTheStateBeforeAndTheTarget() {
        let seen = StateRecorder<String>()
        let look = Middleware<Int, Action>("look") { action, context in
            seen.record("\(context.state) \(context.target)")
            context.next(action)
        }
        let harness = PipelineHarness([look, look])
        _ = harness.run(.reset, state: 41, target: StoreID.root.child(1).child(0))
        #expect(seen.values == ["41 root/1/0", "41 root/1/0"])
    }

    @Test func dispatchQueuesFollowUpsInOrderForTheWholeChain() {
        let announce = Middleware<Int, Action>("announce") { action, context in
            context.dispatch(.log("1 \(action)"))
            context.next(action)
            context.dispatch(.log("2 \(action)"))
        }
        let harness = PipelineHarness([announce])
        #expect(harness.run(.reset, state: 0).summary == "forward(reset)")
        #expect(harness.dispatched.values.map(\.action) == [.log("1 reset"), .log("2 reset")])
        #expect(harness.dispatched.values.map(\.startIndex) == [0, 0])
    }

    @Test func startingAtSkipsTheEarlierMiddlewares() {
        let trail = StateRecorder<String>()
        let harness = PipelineHarness(["a", "b"].map { Self.recording($0, trail) })
        #expect(harness.run(.reset, state: 0, startingAt: 1).summary == "forward(reset)")
        #expect(trail.values == ["b before reset", "b after"])
        #expect(harness.run(.reset, state: 0, startingAt: 2).summary == "forward(reset)")
        #expect(trail.values.count == 2)
    }

    @Test func aThrowFailsTheActionEvenAfterNextAndReportsItWhenUnresolved() {
        let trail = StateRecorder<String>()
        let failing = Middleware<Int, Action>("failing") { action, context in
            context.next(action)
            throw Failure(reason: "late")
        }
        let harness = PipelineHarness([Self.recording("outer", trail), failing])
        #expect(harness.run(.add(1), state: 0).summary == "failed(Failure(late))")
        #expect(trail.values == ["outer before add(1)", "outer after"])
        #expect(
            harness.diagnostics.lines == [
                "root unhandled error from failing while handling add(1): Failure(late)"
            ]
        )
    }

    @Test func resolversRunInOrderAndAResolvedErrorIsNotReported() {
        let seen = StateRecorder<String>()
        let failing = Middleware<Int, Action>("failing") { _, _ in throw Failure(reason: "boom") }
        let first = ErrorResolver<Int, Action>("first") { error, context in
            seen.record("first \(error) \(context.action) \(context.state) \(context.middleware)")
            return .forward(Failure(reason: "wrapped"))
        }
        let second = ErrorResolver<Int, Action>("second") { error, context in
            seen.record("second \(error)")
            context.dispatch(.log("recovered"))
            return .resolved
        }
        let third = ErrorResolver<Int, Action>("third") { error, _ in
            seen.record("third \(error)")
            return .forward(error)
        }
        let harness = PipelineHarness([failing], resolvers: [first, second, third])
        #expect(harness.run(.reset, state: 7).summary == "failed(Failure(wrapped))")  // as forwarded
        #expect(seen.values == ["first Failure(boom) reset 7 failing", "second Failure(wrapped)"])
        #expect(harness.dispatched.values.map(\.action) == [.log("recovered")])
        #expect(harness.diagnostics.lines.isEmpty)
    }

    @Test func anErrorNoResolverHandlesIsReportedOnceWithTheLastForwardedError() {
        let failing = Middleware<Int, Action>("failing") { _, _ in throw Failure(reason: "boom") }
        let passOn = ErrorResolver<Int, Action>("pass on") { _, _ in .forward(Failure(reason: "passed")) }
        let harness = PipelineHarness([failing], resolvers: [passOn, passOn])
        #expect(harness.run(.reset, state: 0).summary == "failed(Failure(passed))")
        #expect(
            harness.diagnostics.lines == [
                "root unhandled error from failing while handling reset: Failure(passed)"
            ]
        )
    }

    @Test func theFirstErrorWinsWhenSeveralMiddlewaresThrow() {
        let inner = Middleware<Int, Action>("inner") { _, _ in throw Failure(reason: "inner") }
        let outer = Middleware<Int, Action>("outer") { action, context in
            context.next(action)
            throw Failure(reason: "outer")
        }
        let harness = PipelineHarness([outer, inner])
        #expect(harness.run(.reset, state: 0).summary == "failed(Failure(inner))")
        #expect(harness.diagnostics.events.values.count == 1)
    }

    @Test func withoutDiagnosticsNothingIsReportedAndTheOutcomeStillSaysWhat() {
        let block = Middleware<Int, Action>("block") { _, _ in }
        let harness = PipelineHarness([block], withDiagnostics: false)
        #expect(harness.run(.reset, state: 0).summary == "blocked(block)")
        #expect(harness.diagnostics.events.values.isEmpty)
    }

    @Test func theChainIsReusableActionAfterAction() {
        let harness = PipelineHarness([Middleware<Int, Action>("pass") { action, context in context.next(action) }])
        for amount in 0..<100 {
            #expect(harness.run(.add(amount), state: amount).summary == "forward(add(\(amount)))")
        }
    }

    @Test(.exitTest) func callingNextTwiceTrapsNamingTheMiddleware() async throws {
        let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let twice = Middleware<Int, Int>("twice") { action, context in
                context.next(action)
                context.next(action)
            }
            _ = PipelineHarness([twice]).run(1, state: 0)
        }
        let message = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(message.contains("Middleware \"twice\" called next twice for one action"))
    }

    @Test(.exitTest) func callingNextAfterReturningTrapsNamingTheMiddleware() async throws {
        let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let stash = ContextStash()
            let keeper = Middleware<Int, Int>("keeper") { action, context in
                if let earlier = stash.context {
                    earlier.next(action)
                } else {
                    stash.context = context
                }
            }
            let harness = PipelineHarness([keeper])
            _ = harness.run(1, state: 0)
            _ = harness.run(2, state: 0)
        }
        let message = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(message.contains("Middleware \"keeper\" called next after it returned"))
    }
}

/// Smuggles a context out of its middleware, which the type system forbids, to check the runtime trap.
private final class ContextStash: @unchecked Sendable {
    // Safety: read and written only by the middleware, on the harness queue, one action at a time.
    var context: MiddlewareContext<Int, Int>?
}
