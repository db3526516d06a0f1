import Canopy
import Dispatch
import Foundation
import Testing

/// Code written the way a Puredux program calls the store API, with a plain `import Canopy`.
@Suite(.timeLimit(.minutes(1))) struct PureduxSurfaceTests {
    struct AppState: Sendable, Equatable {
        var count = 0
        var title: String? = nil
    }

    enum Action: Sendable {
        case increment
        case rename(String)
    }

    private func makeRoot() -> StateStore<AppState, Action> {
        StateStore<AppState, Action>(AppState(), qos: .userInitiated) { state, action in
            switch action {
            case .increment: state.count += 1
            case .rename(let title): state.title = title
            }
        }
    }

    @Test func mapWithTrailingClosuresAndKeyPathsCompilesAndWorks() async {
        let root = makeRoot()
        let counts = StateRecorder<Int>()
        root.map { $0.count }.subscribe(
            observer: Observer {
                counts.record($0)
                return .active
            }
        )
        let titles = StateRecorder<String?>()
        root.flatMap(state: \.title).subscribe(
            observer: Observer(id: UUID()) {
                titles.record($0)
                return .active
            }
        )
        root.map(state: \.count).dispatch(.increment)
        root.map { $0.title }.dispatch(.rename("a"))
        #expect(await counts.waitFor(count: 3) == [0, 1, 1])
        #expect(await titles.waitFor(count: 3) == [nil, nil, "a"])
    }

    @Test func childStoresAndTypeErasureCompose() async {
        let root = makeRoot()
        let store: any Store<(AppState, Int), Action> = root.with(0) { local, action in
            if case .increment = action { local += 10 }
        }
        let erased: AnyStore<(AppState, Int), Action> = store.eraseToAnyStore()
        let doubled = erased.map(state: { $0.1 * 2 })
        let tapper: AnyStore<Int, Void> = doubled.map(actions: { _ in Action.increment })
        let recorder = StateRecorder<Int>()
        tapper.subscribe(
            observer: Observer {
                recorder.record($0)
                return .active
            }
        )
        tapper.dispatch(())
        #expect(await recorder.waitFor(count: 2) == [0, 20])
    }

    @Test func dispatchIsAValueThatCanBePassedAround() async {
        let root = makeRoot()
        let dispatch: Dispatch<Action> = root.dispatch
        dispatch(.increment)
        let reducer: Reducer<Int, Action> = { state, _ in state += 1 }
        var value = 0
        reducer(&value, .increment)
        #expect(value == 1)
        #expect(await root.state.count == 1)
    }
}
