import Foundation
import Testing

@testable import Canopy

@Suite struct ObserverStorageTests {
    /// A list of `count` observers in slots 0..<count, each capturing an object that nothing else holds;
    /// returns the list, the ids and references watching the captured objects, in slot order.
    private func list(of count: Int) -> (ObserverStorage<Int>, [UUID], [WeakRef<Tracked>]) {
        let storage = ObserverStorage<Int>.make(capacity: count)
        var ids: [UUID] = []
        var watches: [WeakRef<Tracked>] = []
        for number in 0..<count {
            let captured = Tracked("\(number)")
            let id = UUID()
            #expect(storage.append(id: id) { _ in withExtendedLifetime(captured) { .active } } == number)
            ids.append(id)
            watches.append(WeakRef(captured))
        }
        return (storage, ids, watches)
    }

    @Test func compactingMovesTheObserversInOrderAndLeavesTheOldListEmpty() {
        var (storage, ids, watches): (ObserverStorage<Int>?, [UUID], [WeakRef<Tracked>]) = list(of: 10)
        // Runs of kept observers of one, two and three slots, with empty slots between and at the end.
        let removed = [1, 2, 5, 9]
        for slot in removed {
            #expect(storage!.remove(at: slot) == .indexed(id: ids[slot]))
        }
        let kept = (0..<10).filter { !removed.contains($0) }

        var compacted: ObserverStorage<Int>? = storage!.compacted(capacity: 4)
        #expect(storage!.used == 0)
        #expect(storage!.live == 0)
        #expect(compacted!.used == kept.count)
        #expect(compacted!.live == kept.count)
        for (slot, original) in kept.enumerated() {
            #expect(compacted!.indexedID(at: slot) == ids[original])
        }

        // The old list holds nothing any more, the new one holds each kept observer once.
        storage = nil
        #expect(kept.allSatisfy { watches[$0].object != nil })
        #expect(removed.allSatisfy { watches[$0].object == nil })
        compacted = nil
        #expect(watches.allSatisfy { $0.object == nil })
    }

    /// A record keeps a subscription's gate and check in one word: a slot of a list is 40 bytes.
    @Test func aSlotTakesFortyBytes() {
        #expect(MemoryLayout<ObserverRecord<Int>?>.stride == 40)
        #expect(MemoryLayout<ObserverRecord<[String: Int]>?>.stride == 40)
    }

    /// A subscription's record keeps its gate, and the list writes the record's slot into the gate when
    /// it appends the record and when compacting moves it; the index of ids leaves such records out.
    @Test func aGateKnowsItsObserversSlotAsTheListMovesIt() {
        let storage = ObserverStorage<Int>.make(capacity: 12)
        var gates: [Int: CallGate] = [:]
        var ids: [Int: UUID] = [:]
        for slot in 0..<12 {
            if slot.isMultiple(of: 3) {
                ids[slot] = UUID()
                #expect(storage.append(id: ids[slot]!) { _ in .active } == slot)
                #expect(storage.indexedID(at: slot) == ids[slot])
            } else {
                let gate = CallGate(host: nil, callingThread: CallingThread())
                #expect(storage.append(id: gate.observerID, gate: gate) { _ in .active } == slot)
                #expect(gate.slot == slot)
                #expect(storage.holdsObserver(of: gate, at: slot))
                #expect(storage.indexedID(at: slot) == nil)
                gates[slot] = gate
            }
        }
        for slot in [0, 1, 5, 6, 7] {
            #expect(storage.remove(at: slot) == (ids[slot].map { .indexed(id: $0) } ?? .unindexed))
        }
        let compacted = storage.compacted(capacity: 7)
        // The kept gates, in order, each at its new slot.
        let kept = gates.filter { ![1, 5, 7].contains($0.key) }.sorted { $0.key < $1.key }.map(\.value)
        var previous = -1
        for gate in kept {
            #expect(gate.slot > previous)
            #expect(compacted.holdsObserver(of: gate, at: gate.slot))
            previous = gate.slot
        }
        // A slot past the list, and a slot holding another observer, do not hold a gate's observer.
        let removed = gates[1]!
        #expect(!compacted.holdsObserver(of: removed, at: removed.slot))
        #expect(!compacted.holdsObserver(of: removed, at: 100))
    }

    /// An observer with a dedup check of its own: the list's loop runs the check in place of the
    /// observer's closure, and reports the slot as dead once a state passes a closed gate.
    @Test func theLoopRunsAnObserversOwnDedupCheckInPlaceOfItsClosure() {
        let viaClosure = StateRecorder<Int>()
        let viaCheck = StateRecorder<Int>()
        let raw = StateRecorder<Int>()
        let gate = CallGate(host: nil, callingThread: CallingThread())
        let filter = AtomicProjectionFilter<Int>(project: { $0 / 10 }, gate: gate, handler: { viaCheck.record($0) })
        let storage = ObserverStorage<Int>.make(capacity: 2)
        _ = storage.append(id: UUID()) { state in
            raw.record(state)
            return .active
        }
        _ = storage.append(id: UUID(), filter: filter) { state in
            viaClosure.record(state)
            return .active
        }
        for state in [1, 5, 12, 19, 20] {
            #expect(storage.notify(state) == nil)
        }
        #expect(raw.values == [1, 5, 12, 19, 20])
        #expect(viaCheck.values == [1, 12, 20])
        #expect(viaClosure.values.isEmpty)

        gate.cancel()
        #expect(storage.notify(25) == nil)  // a duplicate stops before the gate
        #expect(storage.notify(31) == [1])
        #expect(viaCheck.values == [1, 12, 20])

        // A child's observer inside its cell is called through its closure, which for a deduplicating
        // subscription is its check, in the cell and once moved into a list.
        let moved = StateRecorder<Int>()
        let open = CallGate(host: nil, callingThread: CallingThread())
        let cellFilter = AtomicProjectionFilter<Int>(project: { $0 / 10 }, gate: open, handler: { moved.record($0) })
        var cell = NodeObservers<Int>()
        cell.single = Observer(observe: cellFilter.observer)
        #expect(cell.notify(3) == nil)
        let list = cell.movedIntoList()
        #expect(cell.isEmpty)
        for state in [4, 41] {
            #expect(list?.notify(state) == nil)
        }
        #expect(moved.values == [3, 41])
    }
}
