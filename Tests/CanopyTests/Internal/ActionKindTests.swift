import CanopyTestSupport
import Dispatch
import Testing

@testable import Canopy

@Suite(.timeLimit(.minutes(1))) struct ActionKindTests {
    private enum PlainAction { case tap }
    private struct PlainStruct { var value = 0 }
    private class BaseAction {}
    private protocol AnyAction {}
    private struct Loader: AsyncAction {
        func execute(completeHandler: @escaping (Int) -> Void) {}
    }

    @Test func plainEnumsAndStructsCannotHoldAsyncActions() {
        #expect(!ActionKind.mayBeAsyncAction(PlainAction.self))
        #expect(!ActionKind.mayBeAsyncAction(PlainStruct.self))
        #expect(!ActionKind.mayBeAsyncAction(Int.self))
    }

    @Test func conformingTypesClassesAndExistentialsMay() {
        #expect(ActionKind.mayBeAsyncAction(Loader.self))
        #expect(ActionKind.mayBeAsyncAction(BaseAction.self))
        #expect(ActionKind.mayBeAsyncAction((any AnyAction).self))
        #expect(ActionKind.mayBeAsyncAction(Any.self))
        #expect(ActionKind.mayBeAsyncAction(PlainAction?.self))
    }
}

@Suite(.timeLimit(.minutes(1))) struct QueueConfinedTests {
    @Test func readsAndWritesOnItsQueue() {
        let queue = DispatchQueue(label: "confined")
        let box = QueueConfined(1, queue: queue)
        let value = queue.sync {
            box.value += 1
            return box.value
        }
        #expect(value == 2)
    }

    #if DEBUG
    @Test(.exitTest) func offQueueAccessTrapsInDebugBuilds() async {
        await #expect(processExitsWith: .failure) {
            _ = QueueConfined(1, queue: DispatchQueue(label: "other")).value
        }
    }
    #endif
}
