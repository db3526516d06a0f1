import Foundation
import Testing

@testable import Canopy

/// A node's observers: one inside the node until a second comes, then a list that keeps every slot.
@Suite struct NodeObserversTests {
    /// An observer that records `name` with each state and answers `status`.
    private func observer(
        _ name: String,
        _ log: StateRecorder<String>,
        answering status: ObserverStatus = .active
    ) -> Observer<Int> {
        Observer { state in
            log.record("\(name)\(state)")
            return status
        }
    }

    /// Adds `observer` as the node does: into the list if there is one afterwards, else inside.
    private func add(_ observer: Observer<Int>, to observers: inout NodeObservers<Int>) -> Int {
        guard let list = observers.listForOneMore() else {
            observers.single = observer
            return 0
        }
        #expect(list.hasRoom)
        return list.append(observer)
    }

    @Test func oneObserverStaysInsideAndIsSlotZero() {
        let log = StateRecorder<String>()
        var observers = NodeObservers<Int>()
        #expect(observers.isEmpty)
        let first = observer("a", log)
        #expect(add(first, to: &observers) == 0)
        #expect(observers.list == nil)
        #expect(observers.live == 1)
        #expect(observers.slot(of: first.id) == 0)
        #expect(observers.slot(of: UUID()) == nil)
        #expect(observers.notify(1) == nil)
        #expect(log.values == ["a1"])
    }

    @Test func aSecondObserverMovesTheFirstIntoAListInItsSlot() {
        let log = StateRecorder<String>()
        var observers = NodeObservers<Int>()
        let first = observer("a", log)
        let second = observer("b", log)
        _ = add(first, to: &observers)
        #expect(add(second, to: &observers) == 1)
        #expect(observers.single == nil)
        #expect(observers.list != nil)
        #expect(observers.live == 2)
        #expect(observers.slot(of: first.id) == 0)
        #expect(observers.slot(of: second.id) == 1)
        _ = observers.notify(7)
        #expect(log.values == ["a7", "b7"])
    }

    @Test func removingTheObserverInsideEmptiesTheNodeAndTheNextOneGoesInside() {
        let log = StateRecorder<String>()
        var observers = NodeObservers<Int>()
        let first = observer("a", log)
        _ = add(first, to: &observers)
        #expect(observers.remove(at: 1) == nil)
        #expect(observers.remove(at: 0) == first.id)
        #expect(observers.isEmpty)
        #expect(observers.remove(at: 0) == nil)
        #expect(observers.notify(1) == nil)
        #expect(log.values.isEmpty)
        #expect(add(observer("b", log), to: &observers) == 0)
        #expect(observers.list == nil)
        _ = observers.notify(2)
        #expect(log.values == ["b2"])
    }

    @Test func aNodeThatHadAListKeepsItAndItsSlots() {
        let log = StateRecorder<String>()
        var observers = NodeObservers<Int>()
        let first = observer("a", log)
        let second = observer("b", log)
        _ = add(first, to: &observers)
        _ = add(second, to: &observers)
        #expect(observers.remove(at: 0) == first.id)
        #expect(observers.list != nil)
        #expect(observers.isEmpty == false)
        #expect(observers.live == 1)
        #expect(observers.slot(of: second.id) == 1)
        #expect(observers.remove(at: 1) == second.id)
        #expect(observers.live == 0)
        _ = observers.notify(3)
        #expect(log.values.isEmpty)
    }

    @Test func aDeadObserverIsReportedByItsSlotInsideAndInTheList() {
        let log = StateRecorder<String>()
        var single = NodeObservers<Int>()
        _ = add(observer("a", log, answering: .dead), to: &single)
        #expect(single.notify(1) == [0])

        var listed = NodeObservers<Int>()
        _ = add(observer("b", log), to: &listed)
        _ = add(observer("c", log, answering: .dead), to: &listed)
        #expect(listed.notify(2) == [1])
        #expect(log.values == ["a1", "b2", "c2"])
    }
}
