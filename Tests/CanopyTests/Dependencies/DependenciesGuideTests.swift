import Canopy
import Dispatch
import Foundation
import Testing

// The example of Docs/Dependencies.md, kept compiling and checked.

private struct QuotesClient: Sendable {
    var fetch: @Sendable () async throws -> String
}

private struct QuotesClientKey: DependencyKey {
    static let defaultValue = QuotesClient { "Simple things should be simple." }
}

private struct NowKey: DependencyKey {
    static let defaultValue: @Sendable () -> Date = { Date() }
}

extension Dependencies {
    fileprivate var quotes: QuotesClient {
        get { self[QuotesClientKey.self] }
        set { self[QuotesClientKey.self] = newValue }
    }

    fileprivate var now: @Sendable () -> Date {
        get { self[NowKey.self] }
        set { self[NowKey.self] = newValue }
    }
}

private struct Board: Sendable {
    var quote = ""
    var fetchedAt: Date?
    var load = Effect.State()
}

private enum BoardAction: Sendable {
    case refresh
    case loaded(String)
    case failed(any Error)
}

private func makeBoard(effectsOn queue: DispatchQueue = .main) -> StateStore<Board, BoardAction> {
    StateStore<Board, BoardAction>(Board()) { board, action in
        switch action {
        case .refresh:
            board.load.restart()
        case .loaded(let quote):
            board.quote = quote
            board.fetchedAt = Dependency[\.now]()
            board.load.succeed()
        case .failed(let error):
            board.load.fail(error)
        }
    }
    .effect(\.load, on: queue) { _, dispatch in
        Effect {
            dispatch(.loaded(try await Dependency[\.quotes].fetch()))
        } catch: { error in
            dispatch(.failed(error))
        }
    }
}

@Suite(.timeLimit(.minutes(1))) struct DependenciesGuideTests {
    @Test func theBoardUsesTheClockAndTheClientOfItsScope() async {
        let noon = Date(timeIntervalSince1970: 43_200)
        let board = withDependencies {
            $0.now = { noon }
            $0.quotes = QuotesClient { "Test quote" }
        } operation: {
            makeBoard(effectsOn: DispatchQueue(label: "test effects"))
        }
        board.dispatch(.refresh)
        var loaded: Board?
        for await state in board.states() where state.load.isSuccess {
            loaded = state
            break
        }
        #expect(loaded?.quote == "Test quote")
        #expect(loaded?.fetchedAt == noon)
    }
}
