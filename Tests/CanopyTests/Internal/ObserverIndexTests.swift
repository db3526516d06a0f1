import Foundation
import Testing

@testable import Canopy

@Suite struct ObserverIndexTests {
    /// An id whose bytes differ from its neighbours' in one byte only: the index must still spread them.
    private func id(_ number: Int) -> UUID {
        var bytes = [UInt8](repeating: 0, count: 16)
        bytes[15] = UInt8(number & 0xFF)
        bytes[14] = UInt8((number >> 8) & 0xFF)
        return bytes.withUnsafeBytes { UUID(uuid: $0.load(as: uuid_t.self)) }
    }

    /// A list holding observers 0..<count in slots 0..<count.
    private func list(of count: Int) -> ObserverStorage<Int> {
        let storage = ObserverStorage<Int>.make(capacity: count)
        for number in 0..<count {
            #expect(storage.append(id: id(number)) { _ in .active } == number)
        }
        return storage
    }

    @Test func findsEveryObserverAndNothingElse() {
        let storage = list(of: 300)
        let index = ObserverIndex.make(for: storage)
        for number in 0..<300 {
            #expect(index.slot(of: id(number), in: storage) == number)
        }
        for number in 300..<400 {
            #expect(index.slot(of: id(number), in: storage) == nil)
        }
    }

    @Test func forgetsRemovedObserversAndKeepsTheOthers() {
        let storage = list(of: 300)
        let index = ObserverIndex.make(for: storage)
        for number in stride(from: 0, to: 300, by: 3) {
            let removed = storage.remove(at: number)
            #expect(removed == .indexed(id: id(number)))
            index.remove(id(number), slot: number)
        }
        for number in 0..<300 {
            let expected = number.isMultiple(of: 3) ? nil : number
            #expect(index.slot(of: id(number), in: storage) == expected)
        }
    }

    /// A subscription's observer, which its gate finds, is left out, and the index is sized for the others.
    @Test func leavesOutObserversWithAGateAndIsSizedForTheOthers() {
        let storage = ObserverStorage<Int>.make(capacity: 200)
        var gates: [CallGate] = []
        for number in 0..<100 {
            if number.isMultiple(of: 40) {
                _ = storage.append(id: id(number)) { _ in .active }
            } else {
                let gate = CallGate(host: nil, callingThread: CallingThread())
                gates.append(gate)
                _ = storage.append(id: id(number), gate: gate) { _ in .active }
            }
        }
        let index = ObserverIndex.make(for: storage)
        for number in 0..<100 {
            #expect(index.slot(of: id(number), in: storage) == (number.isMultiple(of: 40) ? number : nil))
        }
        // 16 buckets for the three, of which three quarters may be in use: nine more fit.
        #expect(appendUntilFull(storage, index, numbers: 100..<200) == 9)
    }

    /// Appends observers with `numbers` to `storage` and inserts each into `index`, until the index
    /// declines one; returns how many it took.
    private func appendUntilFull(_ storage: ObserverStorage<Int>, _ index: ObserverIndex, numbers: Range<Int>) -> Int {
        var inserted = 0
        for number in numbers {
            let slot = storage.append(id: id(number)) { _ in .active }
            guard index.insert(id(number), slot: slot) else { break }
            inserted += 1
        }
        return inserted
    }

    @Test func insertsUntilFullThenDeclines() {
        let storage = ObserverStorage<Int>.make(capacity: 64)
        let index = ObserverIndex.make(for: storage)  // 16 buckets: room for 12
        let inserted = appendUntilFull(storage, index, numbers: 0..<64)
        #expect(inserted == 12)
        for number in 0..<inserted {
            #expect(index.slot(of: id(number), in: storage) == number)
        }
        // What the owner does then: a new index from the list holds every observer, the declined one too.
        let rebuilt = ObserverIndex.make(for: storage)
        for number in 0...inserted {
            #expect(rebuilt.slot(of: id(number), in: storage) == number)
        }
    }

    @Test func staysCorrectThroughManyAddsAndRemovals() {
        // Each observer is added and removed again, so removed buckets pile up; whenever the index
        // declines, it is rebuilt from the list, as its owner does.
        let storage = ObserverStorage<Int>.make(capacity: 256)
        var index = ObserverIndex.make(for: storage)
        var rebuilds = 0
        for number in 0..<256 {
            let slot = storage.append(id: id(number)) { _ in .active }
            if !index.insert(id(number), slot: slot) {
                index = ObserverIndex.make(for: storage)
                rebuilds += 1
            }
            #expect(index.slot(of: id(number), in: storage) == slot)
            if !number.isMultiple(of: 4) {
                _ = storage.remove(at: slot)
                index.remove(id(number), slot: slot)
            }
        }
        #expect(rebuilds > 0)
        for number in 0..<256 {
            #expect(index.slot(of: id(number), in: storage) == (number.isMultiple(of: 4) ? number : nil))
        }
    }

    @Test func storeKeepsOneCopyOfEachObserverPastTheIndexThreshold() async {
        let store = StateStore<Int, Int>(0) { state, action in state += action }
        let recorders = (0..<40).map { _ in StateRecorder<Int>() }
        let observers = recorders.enumerated().map { number, recorder in
            Observer<Int>(id: id(number)) { state in
                recorder.record(state)
                return .active
            }
        }
        for observer in observers {
            store.subscribe(observer: observer)
        }
        // Subscribing the same observers again sends them the state again but adds no second copy.
        for observer in observers {
            store.subscribe(observer: observer)
        }
        await store.send(1)
        for recorder in recorders {
            #expect(recorder.values == [0, 0, 1])
        }
    }
}
