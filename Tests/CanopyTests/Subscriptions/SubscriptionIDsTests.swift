import Foundation
import Testing

@testable import Canopy

@Suite struct SubscriptionIDsTests {
    @Test func gatesAliveAtOnceHaveDifferentIdsThatShareTheProcessesRandomFirstHalf() {
        let thread = CallingThread()
        let gates = (0..<10_000).map { _ in CallGate(host: nil, callingThread: thread) }
        let ids = gates.map(\.observerID)
        #expect(Set(ids).count == ids.count)
        #expect(!ids.contains(SubscriptionIDs.unlooked))
        let firstHalves = Set(
            (ids + [SubscriptionIDs.unlooked]).map { id in
                withUnsafeBytes(of: id.uuid) { Array($0.prefix(8)) }
            }
        )
        #expect(firstHalves.count == 1)
    }

    @Test func aGatesIdStaysTheSameWhileItLives() {
        let gate = CallGate(host: nil, callingThread: CallingThread())
        #expect(gate.observerID == gate.observerID)
        #expect(gate.observerID == SubscriptionIDs.id(of: gate))
    }
}
