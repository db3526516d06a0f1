import Foundation
import Testing

@testable import Canopy

@Suite struct ObserverIDsTests {
    @Test func idsNeverRepeatAndShareTheProcessesRandomFirstHalf() {
        let ids = (0..<10_000).map { _ in ObserverIDs.next() }
        #expect(Set(ids).count == ids.count)
        let firstHalves = Set(ids.map { id in withUnsafeBytes(of: id.uuid) { Array($0.prefix(8)) } })
        #expect(firstHalves.count == 1)
    }

    @Test func anObserverMadeWithoutAnIdGetsOneThatNoOtherObserverHas() {
        let observers = (0..<1_000).map { _ in Observer<Int> { _ in .active } }
        #expect(Set(observers.map(\.id)).count == observers.count)
        let subscriptionID = ObserverIDs.next()
        #expect(!observers.contains { $0.id == subscriptionID })
    }
}
