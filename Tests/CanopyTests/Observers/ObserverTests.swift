import Foundation
import Testing

@testable import Canopy

@Suite(.timeLimit(.minutes(1))) struct ObserverTests {
    @Test func identityIsTheID() {
        let id = UUID()
        let first = Observer<Int>(id: id) { _ in .active }
        let second = Observer<Int>(id: id) { _ in .dead }
        let other = Observer<Int> { _ in .active }
        #expect(first == second)
        #expect(first.hashValue == second.hashValue)
        #expect(first != other)
        #expect(Set([first, second, other]).count == 2)
    }
}
