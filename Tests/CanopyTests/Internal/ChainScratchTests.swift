import Testing

@testable import Canopy

/// The middleware chain's scratch space on its own: the forwarded action goes back to the engine as one
/// value, touching nothing past it.
@Suite struct ChainScratchTests {
    /// 9 bytes of data, 16 of stride: the 7 bytes after it belong to whatever follows it in memory.
    private struct Unpadded: Equatable {
        var count: Int64
        var flag: UInt8
    }

    @Test func settlingWritesTheActionAndNothingAfterIt() throws {
        try #require(MemoryLayout<Unpadded>.size == 9 && MemoryLayout<Unpadded>.stride == 16)
        let scratch = ChainScratch<Unpadded>(stateReader: ChainStateReader { 0 })
        // The engine's action, followed by bytes that are not the action's.
        let block = UnsafeMutableRawPointer.allocate(byteCount: 16, alignment: 8)
        defer { block.deallocate() }
        block.initializeMemory(as: UInt8.self, repeating: 0xAB, count: 16)
        let action = block.bindMemory(to: Unpadded.self, capacity: 1)
        action.initialize(to: Unpadded(count: 1, flag: 1))
        _ = scratch.begin(at: 0)
        scratch.forward(Unpadded(count: 42, flag: 7))
        #expect(scratch.end(settlingInto: &action.pointee))
        #expect(action.pointee == Unpadded(count: 42, flag: 7))
        let after = UnsafeRawBufferPointer(start: block + 9, count: 7)
        #expect(after.allSatisfy { $0 == 0xAB })
    }

    /// What a forwarded action holds is released when the scratch goes with the action still in it (a run
    /// stopped between `forward` and `end`), and when the scratch drops it.
    @Test func aForwardedActionLeftInTheScratchIsReleased() {
        weak var leftInScratch: Token?
        weak var dropped: Token?
        do {
            let scratch = ChainScratch<Token>(stateReader: ChainStateReader { 0 })
            let token = Token()
            leftInScratch = token
            _ = scratch.begin(at: 0)
            scratch.forward(token)
        }
        #expect(leftInScratch == nil)

        let scratch = ChainScratch<Token>(stateReader: ChainStateReader { 0 })
        do {
            let token = Token()
            dropped = token
            _ = scratch.begin(at: 0)
            scratch.forward(token)
        }
        #expect(dropped != nil)
        scratch.discardForwarded()
        #expect(dropped == nil)
    }

    private final class Token {}
}
