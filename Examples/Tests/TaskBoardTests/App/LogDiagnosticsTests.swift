import Canopy
import Logging
import Testing

@testable import TaskBoard

@Suite(.timeLimit(.minutes(1))) struct LogDiagnosticsTests {
    @Test func eachEventHasItsLevel() {
        let store = StoreID.root
        #expect(LogDiagnostics.level(of: .received(store: store, action: "a")) == .debug)
        #expect(LogDiagnostics.level(of: .reduced(store: store, action: "a", duration: .zero)) == .debug)
        #expect(LogDiagnostics.level(of: .effectCancelled(store: store, id: "search")) == .debug)
        // `trace` shows more than `debug`: the observers called after each action.
        #expect(LogDiagnostics.level(of: .observersNotified(store: store, count: 1)) == .trace)
        #expect(LogDiagnostics.level(of: .blocked(store: store, action: "a", middleware: "validate")) == .info)
        #expect(
            LogDiagnostics.level(of: .error(store: store, action: "a", source: "m", error: CancellationError()))
                == .error
        )
    }

    @Test func atDebugEveryActionOfTheBoardIsLoggedAtWarningOnlyWhatGoesWrong() async {
        let (debugLogger, debugEntries) = CapturingLogHandler.logger(level: .debug)
        let debugBoard = TestBoard(saving: false, diagnostics: LogDiagnostics(logger: debugLogger))
        await debugBoard.board.tasks.send(.tasks(.add(title: "Milk")))
        _ = await debugBoard.board.tasks.outcome(of: .tasks(.add(title: " ")))
        let messages = debugEntries.all.map(\.message)
        #expect(messages.contains { $0.hasSuffix(#"received tasks.add(title: "Milk", tags: [], due: nil, id: nil)"#) })
        #expect(
            messages.contains { $0.contains(#"reduced tasks.add(title: "Milk", tags: [], due: nil, id: nil) in "#) }
        )
        #expect(
            debugEntries.all.contains {
                $0.level == .info
                    && $0.message.hasSuffix(
                        #"blocked tasks.add(title: " ", tags: [], due: nil, id: nil) in middleware "validate""#
                    )
            }
        )

        let (quietLogger, quietEntries) = CapturingLogHandler.logger(level: .warning)
        let quietBoard = TestBoard(saving: false, diagnostics: LogDiagnostics(logger: quietLogger))
        await quietBoard.board.tasks.send(.tasks(.add(title: "Milk")))
        _ = await quietBoard.board.tasks.outcome(of: .tasks(.add(title: " ")))
        #expect(quietEntries.all.isEmpty)
    }
}
