import CanopyTesting
import XCTest

/// The test store under XCTest: a passing flow reports nothing (failures go through `XCTFail`, since no
/// Swift Testing test is current).
final class XCTestStoreTests: XCTestCase {
    func testAPassingFlowUnderXCTest() async {
        let store = TestStore.search()
        await store.startSearch("book")
        await store.receive(.started("book")) { $0.phase = .searching }
        await store.receive(.finished("book", ["book"])) {
            $0.results = ["book"]
            $0.phase = .done
        }
        await store.finish()
    }
}
