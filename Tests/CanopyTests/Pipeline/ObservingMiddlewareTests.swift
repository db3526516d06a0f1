import Testing

@testable import Canopy

/// A middleware that only observes (the action recorder is one): it sees the action where it stands in
/// the chain, and the action goes on unchanged, whether the rest of the chain observes too or not.
@Suite struct ObservingMiddlewareTests {
    enum Action: Equatable, Sendable {
        case add(Int)
        case reset
    }

    /// Records what it sees, with its name and the target, and never changes the action.
    private static func observer(_ name: String, _ trail: StateRecorder<String>) -> Middleware<Int, Action> {
        Middleware(
            name: name,
            observer: { action, environment in
                trail.record("\(name) saw \(action) at \(environment.target)")
            }
        )
    }

    private static func doubling(_ trail: StateRecorder<String>) -> Middleware<Int, Action> {
        Middleware("double") { action, context in
            trail.record("double saw \(action)")
            if case .add(let amount) = action {
                context.next(.add(amount * 2))
            } else {
                context.next(action)
            }
        }
    }

    @Test func observersAloneSeeTheActionInOrderAndLetItThroughUnchanged() {
        let trail = StateRecorder<String>()
        let harness = PipelineHarness([Self.observer("a", trail), Self.observer("b", trail)])
        #expect(harness.run(.add(1), state: 0, target: StoreID.root.child(2)).summary == "forward(add(1))")
        #expect(trail.values == ["a saw add(1) at root/2", "b saw add(1) at root/2"])
    }

    @Test func anObserverAfterATransformSeesTheTransformedAction() {
        let trail = StateRecorder<String>()
        let harness = PipelineHarness([Self.doubling(trail), Self.observer("last", trail)])
        #expect(harness.run(.add(3), state: 0).summary == "forward(add(6))")
        #expect(trail.values == ["double saw add(3)", "last saw add(6) at root"])
    }

    @Test func anObserverBeforeATransformSeesTheActionAsSentAndTheReducersGetTheTransformedOne() {
        let trail = StateRecorder<String>()
        let harness = PipelineHarness([Self.observer("first", trail), Self.doubling(trail)])
        #expect(harness.run(.add(3), state: 0).summary == "forward(add(6))")
        #expect(trail.values == ["first saw add(3) at root", "double saw add(3)"])
    }

    @Test func anObserverBeforeABlockSeesTheActionThatIsThenBlocked() {
        let trail = StateRecorder<String>()
        let block = Middleware<Int, Action>("block") { _, _ in }
        let harness = PipelineHarness([Self.observer("first", trail), block, Self.observer("never", trail)])
        #expect(harness.run(.reset, state: 0).summary == "blocked(block)")
        #expect(trail.values == ["first saw reset at root"])
    }

    @Test func anActionResumedPastTheMiddlewaresThatChangeItMeetsOnlyTheObserversAfterThem() {
        let trail = StateRecorder<String>()
        let harness = PipelineHarness([Self.doubling(trail), Self.observer("a", trail), Self.observer("b", trail)])
        #expect(harness.run(.add(5), state: 0, startingAt: 1).summary == "forward(add(5))")
        #expect(harness.run(.add(5), state: 0, startingAt: 2).summary == "forward(add(5))")
        #expect(harness.run(.add(5), state: 0, startingAt: 3).summary == "forward(add(5))")
        #expect(trail.values == ["a saw add(5) at root", "b saw add(5) at root", "b saw add(5) at root"])
    }
}
