import Testing

@testable import Canopy

/// The lock-guarded box: copies share one value, which goes when the last copy does.
@Suite struct LockedValueTests {
    @Test func copiesShareTheValueAndExchangeReturnsTheOldOne() {
        let box = LockedValue(1)
        let copy = box
        copy.withLock { $0 += 1 }
        #expect(box.withLock { $0 } == 2)
        #expect(box.exchange(10) == 2)
        #expect(copy.withLock { $0 } == 10)
    }

    @Test func theValueIsReleasedWithTheLastCopy() {
        weak var held: Token?
        do {
            let token = Token()
            held = token
            let box = LockedValue(token)
            let copy = box
            #expect(copy.withLock { $0 } === token)
        }
        #expect(held == nil)
    }

    private final class Token: Sendable {}
}
