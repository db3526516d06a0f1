import Canopy
import Foundation
import Testing

// The call sites of a Puredux 2.x program that uses dependencies and shared stores, in Swift 5 mode,
// with `import Canopy`. Puredux's `@DependencyEntry var now = { Date() }` and
// `@StoreEntry var root = StateStore(…)` macros become a key type and a computed property.

struct AppRootState: Equatable, Sendable {
    var currentTime: Date?
    var count = 0

    mutating func reduce(_ action: Action) {
        switch action {
        case .updateTime:
            let now = Dependency[\.now]
            currentTime = now()
        case .increment:
            count += 1
        }
    }
}

struct ViewState: Equatable, Sendable {
    var taps = 0

    mutating func reduce(_ action: Action) {
        if case .increment = action { taps += 1 }
    }
}

enum Action: Sendable {
    case updateTime
    case increment
}

// Puredux infers `() -> Date` from `{ Date() }`; Swift 5 mode accepts it as a dependency value, while
// Swift 6 mode asks for `@Sendable () -> Date`.
struct NowKey: DependencyKey {
    static let defaultValue = { Date() }
}

extension Dependencies {
    var now: () -> Date {
        get { self[NowKey.self] }
        set { self[NowKey.self] = newValue }
    }
}

struct RootStoreKey: DependencyKey {
    static let defaultValue = StateStore<AppRootState, Action>(AppRootState()) { state, action in
        state.reduce(action)
    }
}

extension SharedStores {
    var root: StateStore<AppRootState, Action> {
        get { self[RootStoreKey.self] }
        set { self[RootStoreKey.self] = newValue }
    }
}

final class ContentViewModel {
    @StoreOf(\.root) var rootStore: StateStore<AppRootState, Action>
    @Dependency(\.now) var now

    let store: StateStore<(AppRootState, ViewState), Action> = StoreOf(\.root).with(ViewState()) { state, action in
        state.reduce(action)
    }
}

@Suite(.timeLimit(.minutes(1))) struct PureduxDependencyCallSitesTests {
    static let epoch = Date(timeIntervalSince1970: 0)

    @Test func aReducerReadsTheInjectedClockAndAChildOfTheSharedRootSeesIt() async {
        // Made in the scope, the root's reducer reads the scope's clock wherever actions come from.
        let (sample, model) = withDependencies {
            $0.now = { Self.epoch }
        } operation: {
            let sample = StateStore<AppRootState, Action>(AppRootState()) { state, action in
                state.reduce(action)
            }
            let model = withSharedStores {
                $0.root = sample
            } operation: {
                ContentViewModel()
            }
            return (sample, model)
        }
        model.store.dispatch(.increment)
        let state = await model.store.send(.updateTime)
        #expect(state.0 == AppRootState(currentTime: Self.epoch, count: 1))
        #expect(state.1 == ViewState(taps: 1))
        #expect(await model.rootStore.state == state.0)
        #expect(await sample.state == state.0)
    }

    @Test func theSetUpWritesAndTheDefaultRootAreReachable() async {
        // Puredux's set-up lines; the same store is written back, so no other test sees a change.
        let root = SharedStores[\.root]
        SharedStores[\.root] = root
        Dependency[\.now] = NowKey.defaultValue
        let model = ContentViewModel()
        #expect(model.now() >= Self.epoch)
        #expect(await model.rootStore.send(.increment).count >= 1)
    }
}
