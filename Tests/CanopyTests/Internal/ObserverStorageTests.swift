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
            #expect(storage!.remove(at: slot) == ids[slot])
        }
        let kept = (0..<10).filter { !removed.contains($0) }

        var compacted: ObserverStorage<Int>? = storage!.compacted(capacity: 4)
        #expect(storage!.used == 0)
        #expect(storage!.live == 0)
        #expect(compacted!.used == kept.count)
        #expect(compacted!.live == kept.count)
        for (slot, original) in kept.enumerated() {
            #expect(compacted!.id(at: slot) == ids[original])
        }

        // The old list holds nothing any more, the new one holds each kept observer once.
        storage = nil
        #expect(kept.allSatisfy { watches[$0].object != nil })
        #expect(removed.allSatisfy { watches[$0].object == nil })
        compacted = nil
        #expect(watches.allSatisfy { $0.object == nil })
    }
}
