import CanopyTestSupport
import Dispatch
import Testing

@testable import Canopy

/// A node crosses threads only as a `QueueBound`, which gives it back only on its tree's queue, checked in
/// every build.
@Suite(.timeLimit(.minutes(1))) struct QueueBoundTests {
    @Test func aNodeIsGivenBackOnItsQueue() {
        let store = StateStore<Int, Int>(3) { state, action in state += action }
        let node = store.handle.stateNode!
        let state = store.queue.sync { node.onQueue.state }
        #expect(state == 3)
    }

    @Test func whatOtherThreadsUseOfANodeNeedsNoQueue() {
        let root = StateStore<Int, Int>(0) { state, action in state += action }
        let child = root.with(0) { local, action in local += action }
        let node = child.handle.stateNode!
        #expect(node.depth == 1)
        #expect(node.storeID == child.storeID)
        #expect(node.link.depth == 1)
        #expect(node.tree === root.handle.tree)
    }

    @Test(.exitTest) func aNodeAskedForOffItsQueueTraps() async {
        await #expect(processExitsWith: .failure) {
            let store = StateStore<Int, Int>(0) { state, action in state += action }
            _ = store.handle.stateNode!.onQueue.state
        }
    }

    @Test(.exitTest) func theProofOfADrainsTurnIsMadeOnlyOnTheQueue() async {
        await #expect(processExitsWith: .failure) {
            let queue = DispatchQueue(label: "canopy.tests.elsewhere")
            _ = DrainTurn.checked(on: queue)
        }
    }
}
