import Canopy
import CanopyTestSupport
import Dispatch

@testable import CanopyTesting

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A search like TaskBoard's: each query waits out a debounce, then searches; a newer query cancels
/// the run of the one before.
struct Search: Equatable, Sendable {
    enum Phase: Equatable, Sendable {
        case idle
        case debouncing
        case searching
        case done
    }

    var query = ""
    var phase = Phase.idle
    var results: [String] = []

    static let debounce: TimeInterval = 0.3
    static let latency: TimeInterval = 0.1
    static let catalog = ["milk", "oat milk", "bike", "book"]

    mutating func reduce(_ action: SearchAction) {
        switch action {
        case .setQuery(let text):
            query = text
            results = []
            phase = text.isEmpty ? .idle : .debouncing
        case .started(let text):
            guard text == query else { return }
            phase = .searching
        case .finished(let text, let found):
            guard text == query else { return }
            results = found
            phase = .done
        }
    }

    static func attach(to store: StateStore<Search, SearchAction>, scheduler: any DelayScheduler) {
        store.effect(onChange: \.query, on: effectQueue) { state, dispatch in
            let query = state.query
            guard !query.isEmpty else { return Effect {} }
            return Effect {
                do {
                    try await scheduler.sleep(for: debounce)  // allowed: the test's manual clock
                    dispatch(.started(query))
                    try await scheduler.sleep(for: latency)  // allowed: the test's manual clock
                    dispatch(.finished(query, catalog.filter { $0.contains(query) }))
                } catch {
                    // Cancelled by a newer query.
                }
            }
        }
    }
}

extension TestStore where State == Search, Action == SearchAction {
    /// A test store over a root `Search` store with its effect.
    static func search() -> TestStore<Search, SearchAction> {
        let store = TestStore(Search(), reducer: { $0.reduce($1) }, effects: Search.attach)
        // The store waits this long for an effect busy without the clock (its task not yet scheduled, on
        // a loaded machine): as long as any other wait of the tests, which the sanitizer steps lengthen.
        store.realTimeLimit = .seconds(waitBoundSeconds)
        return store
    }

    /// Sends a query to a search that is idle or done: the query changes and its debounce starts.
    func startSearch(_ text: String) async {
        await send(.setQuery(text)) {
            $0.query = text
            $0.phase = .debouncing
        }
    }
}

enum SearchAction: Equatable, Sendable {
    case setQuery(String)
    case started(String)
    case finished(String, [String])
}

/// A load that fails `failures` times, then succeeds; retried by `Effect.State` with a constant delay.
struct Loader: Sendable {
    var load = Effect.State()
    var value: String?

    /// What the tests assert: `Effect.State`'s run identity is new on each run, so a test states the
    /// status and attempt instead.
    struct Snapshot: Equatable, Sendable {
        var status: Effect.State.Status
        var attempt: Int?
        var value: String?
    }

    var snapshot: Snapshot {
        Snapshot(status: load.status, attempt: load.currentAttempt, value: value)
    }

    static let retryDelay: TimeInterval = 2

    mutating func reduce(_ action: LoaderAction) {
        switch action {
        case .start:
            load.run(maxAttempts: 3, retryPolicy: .constant(Self.retryDelay))
        case .failed:
            load.retryOrFailWith(nil)
        case .loaded(let text):
            value = text
            load.succeed()
        }
    }

    static func attach(
        to store: StateStore<Loader, LoaderAction>,
        scheduler: any DelayScheduler,
        failures: Int
    ) {
        let attempts = LockedValue(0)
        store.effect(\.load, on: effectQueue) { _, dispatch in
            Effect {
                let attempt = attempts.withLock { count in
                    count += 1
                    return count
                }
                do {
                    try await scheduler.sleep(for: 1)  // allowed: the test's manual clock
                } catch {
                    return
                }
                dispatch(attempt <= failures ? .failed : .loaded("attempt \(attempt)"))
            }
        }
    }
}

enum LoaderAction: Equatable, Sendable {
    case start
    case failed
    case loaded(String)
}

/// Where the test effects run.
let effectQueue = DispatchQueue(label: "canopy-testing-tests.effects")
