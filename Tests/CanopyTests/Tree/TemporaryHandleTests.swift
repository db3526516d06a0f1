import CanopyTestSupport
import Dispatch
import Foundation  // Thread
import Synchronization
import Testing

@testable import Canopy

/// SPEC 2.1: an action accepted by any handle is reduced exactly once while its tree lives, whatever
/// happens to the handle afterwards. Here every kind of handle is made for one dispatch and let go of
/// right after it, from several threads at once.
@Suite(.timeLimit(.minutes(1))) struct TemporaryHandleTests {
    @Test(arguments: 0..<2)
    func nothingIsLostThroughHandlesLetGoOfRightAfterTheirDispatch(round: Int) async {
        let root = StateStore<Int, Int>(0) { state, action in state += action }
        let children = (0..<4).map { _ in root.with(0) { (local: inout Int, action: Int) in local += action } }
        let dispatched = Atomic<Int>(0)
        let done = StateRecorder<Int>()
        let threads = 4
        for thread in 0..<threads {
            Thread {
                for index in 0..<2_000 {
                    let child = children[(index + round) % children.count]
                    switch (index + thread) % 9 {
                    case 0: root.dispatch(1)
                    case 1: root.map(state: { $0 * 2 }).dispatch(1)
                    case 2: root.map(actions: { (text: String) in text.count }).dispatch("a")
                    case 3: root.weakStore().dispatch(1)
                    case 4: root.with(0) { _, _ in }.dispatch(1)
                    case 5: child.dispatch(1)
                    case 6: child.weakStore().dispatch(1)
                    case 7: child.with("") { _, _ in }.map(actions: { (action: Int) in action }).dispatch(1)
                    default:
                        let temporary = root.with(0) { (local: inout Int, action: Int) in local += action }
                        let weak = temporary.weakStore()
                        withExtendedLifetime(temporary) { weak.dispatch(1) }
                    }
                    dispatched.add(1, ordering: .relaxed)
                }
                done.record(thread)
            }.start()
        }
        _ = await done.waitFor(count: threads)
        #expect(await root.state == dispatched.load(ordering: .relaxed))
        #expect(dispatched.load(ordering: .relaxed) == threads * 2_000)
    }
}
