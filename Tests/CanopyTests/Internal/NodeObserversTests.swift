import Foundation
import Testing

@testable import Canopy

/// A child's observers: one inside its cell until a second comes, then a list that keeps every slot.
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

    /// Observers as a node keeps them: the first inside (`observers`), then a list (`list`, which the
    /// node keeps in its box of extras).
    private struct Node {
        var observers = NodeObservers<Int>()
        var list: ObserverStorage<Int>?

        /// Adds `observer` as the node does: inside if the node has had none, else into the list, made
        /// by the second one with the first in slot 0.
        mutating func add(_ observer: Observer<Int>) -> Int {
            if list == nil {
                list = observers.movedIntoList()
            }
            guard let list else {
                observers.single = observer
                return 0
            }
            #expect(list.hasRoom)
            return list.append(id: observer.id, observe: observer.observe)
        }

        // As the node does: with a list, the list alone; the observer inside only without one.
        mutating func notify(_ state: Int) -> [Int]? {
            guard let list else { return observers.notify(state) }
            return list.notify(state)
        }

        // As the node does: with a list, the list alone; the observer inside only without one.
        mutating func remove(at slot: Int) -> RemovedObserver? {
            guard let list else { return observers.remove(at: slot) }
            return list.remove(at: slot)
        }

        func slot(of id: UUID) -> Int? {
            guard let list else { return observers.slot(of: id) }
            return list.slot(of: id)
        }

        var live: Int { list?.live ?? observers.live }
    }

    @Test func oneObserverStaysInsideAndIsSlotZero() {
        let log = StateRecorder<String>()
        var node = Node()
        #expect(node.observers.isEmpty)
        #expect(node.observers.movedIntoList() == nil)
        let first = observer("a", log)
        #expect(node.add(first) == 0)
        #expect(node.list == nil)
        #expect(node.live == 1)
        #expect(node.slot(of: first.id) == 0)
        #expect(node.slot(of: UUID()) == nil)
        #expect(node.notify(1) == nil)
        #expect(log.values == ["a1"])
    }

    @Test func aSecondObserverMovesTheFirstIntoAListInItsSlot() {
        let log = StateRecorder<String>()
        var node = Node()
        let first = observer("a", log)
        let second = observer("b", log)
        _ = node.add(first)
        #expect(node.add(second) == 1)
        #expect(node.observers.isEmpty)
        #expect(node.list != nil)
        #expect(node.live == 2)
        #expect(node.slot(of: first.id) == 0)
        #expect(node.slot(of: second.id) == 1)
        _ = node.notify(7)
        #expect(log.values == ["a7", "b7"])
    }

    @Test func removingTheObserverInsideEmptiesTheNodeAndTheNextOneGoesInside() {
        let log = StateRecorder<String>()
        var node = Node()
        let first = observer("a", log)
        _ = node.add(first)
        #expect(node.remove(at: 1) == nil)
        #expect(node.remove(at: 0) == .unindexed)  // no node with an observer inside has an index
        #expect(node.observers.isEmpty)
        #expect(node.remove(at: 0) == nil)
        #expect(node.notify(1) == nil)
        #expect(log.values.isEmpty)
        #expect(node.add(observer("b", log)) == 0)
        #expect(node.list == nil)
        _ = node.notify(2)
        #expect(log.values == ["b2"])
    }

    @Test func aNodeThatHadAListKeepsItAndItsSlots() {
        let log = StateRecorder<String>()
        var node = Node()
        let first = observer("a", log)
        let second = observer("b", log)
        _ = node.add(first)
        _ = node.add(second)
        #expect(node.remove(at: 0) == .indexed(id: first.id))
        #expect(node.list != nil)
        #expect(node.live == 1)
        #expect(node.slot(of: second.id) == 1)
        #expect(node.remove(at: 1) == .indexed(id: second.id))
        #expect(node.live == 0)
        // With a list, the observer inside is not called even if one were put there.
        node.observers.single = observer("x", log)
        _ = node.notify(3)
        #expect(log.values.isEmpty)
    }

    @Test func aDeadObserverIsReportedByItsSlotInsideAndInTheList() {
        let log = StateRecorder<String>()
        var single = Node()
        _ = single.add(observer("a", log, answering: .dead))
        #expect(single.notify(1) == [0])

        var listed = Node()
        _ = listed.add(observer("b", log))
        _ = listed.add(observer("c", log, answering: .dead))
        #expect(listed.notify(2) == [1])
        #expect(log.values == ["a1", "b2", "c2"])
    }
}
