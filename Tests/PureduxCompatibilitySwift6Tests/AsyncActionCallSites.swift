import Canopy
import Dispatch
import Foundation
import Testing

// `AsyncAction` call sites (SPEC 5) written as a Puredux 2.x program writes them: actions are types
// conforming to one protocol, and an async action is one of them. The same file is compiled in Swift 5
// and in Swift 6 language mode.
//
// An async action's results reach its store only while the store lives, and Swift may release a local
// right after its last use, so the test holds its store until the results are seen.

protocol LoadAction: Sendable {}

struct TitleLoaded: LoadAction {
    let title: String
}

struct LoadTitle: LoadAction, AsyncAction {
    let title: String

    func execute(completeHandler: @escaping (LoadAction) -> Void) {
        completeHandler(TitleLoaded(title: title))
    }
}

struct LoadTitleInBackground: LoadAction, AsyncAction {
    var dispatchQueue: DispatchQueue { .global() }

    func execute(completeHandler: @escaping (LoadAction) -> Void) {
        completeHandler(TitleLoaded(title: "background"))
    }
}

@Sendable func reduceTitles(state: inout [String], action: LoadAction) {
    switch action {
    case let load as LoadTitle: state.append("load \(load.title)")
    case let loaded as TitleLoaded: state.append(loaded.title)
    default: break
    }
}

@Suite(.timeLimit(.minutes(1)))
struct AsyncActionCallSites {
    @Test func anAsyncActionIsReducedThenExecutedAndItsResultsDispatched() async {
        let store = StateStore<[String], LoadAction>([], reducer: reduceTitles)
        let states = Recorder<[String]>()
        store.subscribe(
            observer: Observer { state in
                states.record(state)
                return .active
            }
        )
        store.dispatch(LoadTitle(title: "t"))
        #expect(await states.waitFor(count: 3).last == ["load t", "t"])
        store.dispatch(LoadTitleInBackground())
        // The async action itself is reduced too (here to the same state), then its result.
        #expect(await states.waitFor(count: 5).last == ["load t", "t", "background"])
        withExtendedLifetime(store) {}
    }
}
