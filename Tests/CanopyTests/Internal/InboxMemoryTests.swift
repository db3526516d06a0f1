import Testing

@testable import Canopy

/// The memory of the inbox's buffers, grown as a burst of dispatches does: both ways of moving the
/// entries keep every one of them, once.
@Suite struct InboxMemoryTests {
    /// How many ``Tracked`` instances of one test are alive.
    private final class Census {
        var alive = 0
    }

    /// Counts itself in its census while alive, so that a value copied instead of moved, or lost, shows.
    private final class Tracked {
        let value: Int
        let census: Census

        init(_ value: Int, in census: Census) {
            self.value = value
            self.census = census
            census.alive += 1
        }

        deinit {
            census.alive -= 1
        }
    }

    @Test(arguments: [true, false])
    func growingMovesEveryValueOnce(reallocating: Bool) {
        let census = Census()
        var memory: UnsafeMutablePointer<(Int, Tracked)>?
        var capacity = 0
        for value in 0..<1_000 {
            if value == capacity {
                let grown = Swift.max(4, capacity * 2)
                memory = InboxMemory.grown(memory, count: value, toCapacity: grown, reallocating: reallocating)
                capacity = grown
            }
            (memory! + value).initialize(to: (value, Tracked(value, in: census)))
        }
        #expect(census.alive == 1_000)
        #expect((0..<1_000).allSatisfy { memory![$0].0 == $0 && memory![$0].1.value == $0 })
        memory!.deinitialize(count: 1_000)
        InboxMemory.deallocate(memory)
        #expect(census.alive == 0)
    }

    @Test(arguments: [true, false])
    func aBlockForNoValuesGrowsAndFrees(reallocating: Bool) {
        // A capacity of zero still asks for a byte: `realloc` to zero bytes could free the block and
        // return `nil`, which `grown` would take for running out of memory.
        let none: UnsafeMutablePointer<Int>? = nil
        var memory = InboxMemory.grown(none, count: 0, toCapacity: 0, reallocating: reallocating)
        memory = InboxMemory.grown(memory, count: 0, toCapacity: 0, reallocating: reallocating)
        memory = InboxMemory.grown(memory, count: 0, toCapacity: 4, reallocating: reallocating)
        memory.initialize(repeating: 7, count: 4)
        #expect(UnsafeBufferPointer(start: memory, count: 4).allSatisfy { $0 == 7 })
        InboxMemory.deallocate(memory)
    }

    @Test func referencesCanMoveByReallocating() {
        #expect(InboxMemory.canReallocate(InboxBuffer.Target.self))
        #expect(InboxMemory.canReallocate(String.self))
    }
}
