import CanopyTestSupport
import Dispatch
import Foundation
import Testing

@testable import Canopy

/// The actions of these tests: plain ones, and async ones that report where and when they ran.
private protocol LogAction: Sendable {}

private struct Append: LogAction {
    let text: String
}

/// Reports each `execute` to `runs`, with the queue it ran on, then completes with `results`.
private struct Fetch: LogAction, AsyncAction {
    let name: String
    let queue: DispatchQueue
    let runs: StateRecorder<String>
    var results: [any LogAction] = []

    var dispatchQueue: DispatchQueue { queue }

    func execute(completeHandler: @escaping (any LogAction) -> Void) {
        runs.record("\(name) on \(DispatchQueue.getSpecific(key: queueName) ?? "?")")
        for result in results {
            completeHandler(result)
        }
    }
}

/// An async action, translated away by a view, that reports that it started.
private struct Ping: AsyncAction {
    let name: String
    let runs: StateRecorder<String>

    var dispatchQueue: DispatchQueue { .global() }

    func execute(completeHandler: @escaping (Int) -> Void) {
        runs.record(name)
    }
}

/// An async action that keeps the default queue.
private struct OnMain: LogAction, AsyncAction {
    let runs: StateRecorder<String>

    func execute(completeHandler: @escaping (any LogAction) -> Void) {
        runs.record(DispatchQueue.getSpecific(key: queueName) ?? "?")
        completeHandler(Append(text: "from main"))
    }
}

private let queueName = DispatchSpecificKey<String>()

private func makeQueue(_ name: String) -> DispatchQueue {
    let queue = DispatchQueue(label: "canopy.tests.async-action.\(name)")
    queue.setSpecific(key: queueName, value: name)
    return queue
}

private func reduceLog(_ log: inout [String], _ action: any LogAction) {
    switch action {
    case let append as Append: log.append(append.text)
    case let fetch as Fetch: log.append("reduced \(fetch.name)")
    case is OnMain: log.append("reduced main")
    default: break
    }
}

/// An async action's results reach its store only while the store lives, and Swift may release a local
/// right after its last use, so a test that waits for results holds its store until they are seen.
@Suite(.timeLimit(.minutes(1))) struct AsyncActionTests {
    @Test func asyncActionIsReducedLikeAnyAction() async {
        let store = StateStore<[String], any LogAction>([], reducer: reduceLog)
        let runs = StateRecorder<String>()
        let state = await store.send(Fetch(name: "a", queue: makeQueue("work"), runs: runs))
        #expect(state == ["reduced a"])
    }

    @Test func executeRunsOnceOnItsQueue() async {
        let store = StateStore<[String], any LogAction>([], reducer: reduceLog)
        let queue = makeQueue("work")
        let runs = StateRecorder<String>()
        await store.send(Fetch(name: "a", queue: queue, runs: runs))
        await store.send(Append(text: "later"))
        await settle(queue)
        #expect(runs.values == ["a on work"])
    }

    @Test func executeRunsInDispatchOrder() async {
        let store = StateStore<[String], any LogAction>([], reducer: reduceLog)
        let queue = makeQueue("work")
        let runs = StateRecorder<String>()
        let names = (0..<50).map { "fetch \($0)" }
        for name in names {
            store.dispatch(Fetch(name: name, queue: queue, runs: runs))
        }
        #expect(await runs.waitFor(count: names.count) == names.map { "\($0) on work" })
    }

    @Test func resultsAreDispatchedToTheStore() async {
        let store = StateStore<[String], any LogAction>([], reducer: reduceLog)
        let runs = StateRecorder<String>()
        let states = StateRecorder<[String]>()
        let subscription = store.subscribe { states.record($0) }
        let results: [any LogAction] = [Append(text: "one"), Append(text: "two")]
        store.dispatch(Fetch(name: "a", queue: makeQueue("work"), runs: runs, results: results))
        #expect(await states.waitFor(count: 4).last == ["reduced a", "one", "two"])
        subscription.cancel()
        withExtendedLifetime(store) {}
    }

    @Test func aResultThatIsAnAsyncActionIsExecutedToo() async {
        let store = StateStore<[String], any LogAction>([], reducer: reduceLog)
        let runs = StateRecorder<String>()
        let second = Fetch(name: "second", queue: makeQueue("second"), runs: runs, results: [Append(text: "done")])
        store.dispatch(Fetch(name: "first", queue: makeQueue("first"), runs: runs, results: [second]))
        #expect(await runs.waitFor(count: 2) == ["first on first", "second on second"])
        let states = StateRecorder<[String]>()
        let subscription = store.subscribe { if $0.last == "done" { states.record($0) } }
        #expect(await states.waitFor(count: 1) == [["reduced first", "reduced second", "done"]])
        subscription.cancel()
        withExtendedLifetime(store) {}
    }

    @Test func childResultsGoThroughTheChildReducerThenUp() async {
        let root = StateStore<[String], any LogAction>([], reducer: reduceLog)
        let child = root.with([String]()) { log, action in
            if let append = action as? Append { log.append("child \(append.text)") }
        }
        let runs = StateRecorder<String>()
        let done = StateRecorder<([String], [String])>()
        let subscription = child.subscribe { state in if state.0.contains("result") { done.record(state) } }
        child.dispatch(Fetch(name: "a", queue: makeQueue("work"), runs: runs, results: [Append(text: "result")]))
        let state = await done.waitFor(count: 1)[0]
        #expect(state.0 == ["reduced a", "result"])
        #expect(state.1 == ["child result"])
        #expect(runs.values == ["a on work"])  // executed once, by the child that received it
        subscription.cancel()
        withExtendedLifetime(child) {}
    }

    @Test func resultsOfAnActionSentThroughATemporaryViewReachTheStore() async {
        let store = StateStore<[String], any LogAction>([], reducer: reduceLog)
        let queue = makeQueue("work")
        let runs = StateRecorder<String>()
        store.map(state: \.count).dispatch(
            Fetch(name: "a", queue: queue, runs: runs, results: [Append(text: "result")])
        )
        _ = await store.state  // the async action is reduced and its `execute` queued
        await settle(queue)  // `execute` ran and dispatched its result
        #expect(await store.state == ["reduced a", "result"])
    }

    /// An async action that a `map(actions:)` view's translation hides from the store is started by the
    /// view once reduced, whichever way it is sent.
    @Test func anAsyncActionAViewsTranslationHidesStartsHoweverItIsSent() async {
        let runs = StateRecorder<String>()
        let store = StateStore<Int, Int>(0) { state, action in state += action }
        let view = store.map(actions: { (_: Ping) in 1 })
        view.dispatch(Ping(name: "dispatch", runs: runs))
        view.dispatch(Ping(name: "dispatch with a completion", runs: runs)) { _ in }
        _ = await view.send(Ping(name: "send", runs: runs))
        #expect(Set(await runs.waitFor(count: 3)) == ["dispatch", "dispatch with a completion", "send"])
        #expect(await store.state == 3)
    }

    @Test func defaultQueueIsMain() async {
        // Marks the main queue so `execute` can tell where it runs (on Linux a worker thread may
        // service the main queue, so the thread is no evidence).
        DispatchQueue.main.setSpecific(key: queueName, value: "main")
        let runs = StateRecorder<String>()
        let action = OnMain(runs: runs)
        #expect(action.dispatchQueue.label == DispatchQueue.main.label)
        let store = StateStore<[String], any LogAction>([], reducer: reduceLog)
        store.dispatch(action)
        #expect(await runs.waitFor(count: 1) == ["main"])
    }

    @Test func resultsOfAReleasedStoreAreDropped() async {
        let queue = makeQueue("work")
        let runs = StateRecorder<String>()
        var store: StateStore<[String], any LogAction>? = StateStore([], reducer: reduceLog)
        let node = WeakRef(store!.handle.stateNode!.object)
        queue.suspend()
        await store?.send(Fetch(name: "a", queue: queue, runs: runs, results: [Append(text: "late")]))
        await settle(store!.handle.queue)
        store = nil
        #expect(node.object == nil)  // the pending execute does not keep the store alive
        queue.resume()
        #expect(await runs.waitFor(count: 1) == ["a on work"])
    }

    #if DEBUG
    @Test(.exitTest) func aResultThatIsNotAnActionOfTheStoreIsReportedInDebugBuilds() async {
        await #expect(processExitsWith: .failure) {
            struct WrongResult: LogAction, AsyncAction {
                let queue: DispatchQueue
                var dispatchQueue: DispatchQueue { queue }
                func execute(completeHandler: @escaping (String) -> Void) {
                    completeHandler("not an action")
                }
            }
            let queue = DispatchQueue(label: "canopy.tests.async-action.wrong")
            let store = StateStore<[String], any LogAction>([]) { _, _ in }
            await store.send(WrongResult(queue: queue))
            queue.sync {}  // `execute` ran; the assertion must have stopped the process already
        }
    }
    #endif
}
