import Foundation
import Testing

@testable import Canopy

@Suite struct SubscriptionIDsTests {
    @Test func idsNeverRepeatAndShareTheProcessesRandomFirstHalf() {
        let ids = (0..<10_000).map { _ in SubscriptionIDs.next() }
        #expect(Set(ids).count == ids.count)
        let firstHalves = Set(ids.map { id in withUnsafeBytes(of: id.uuid) { Array($0.prefix(8)) } })
        #expect(firstHalves.count == 1)
    }
}
