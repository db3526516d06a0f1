import Canopy
import Testing

@testable import TaskBoard

@Suite(.timeLimit(.minutes(1))) struct ScriptRunnerTests {
    private func run(
        _ script: String,
        on test: TestBoard = TestBoard(),
        captured: CapturedConsole = CapturedConsole()
    ) async -> (succeeded: Bool, captured: CapturedConsole, test: TestBoard) {
        let session = Session(board: test.board, console: captured.console, mode: .script) { TestBoard.day }
        let succeeded = await ScriptRunner.run(InputLines.lines(of: script), in: session, echo: false, name: "test")
        return (succeeded, captured, test)
    }

    @Test func runsCommandsInOrder() async {
        let (succeeded, captured, _) = await run(
            """
            add Buy milk --tag home --due today
            add Report --due 2025-03-10
            done 1
            list --open
            list --overdue
            """
        )
        #expect(succeeded)
        #expect(
            captured.output == """
                added #1 [ ] Buy milk #home  due today
                added #2 [ ] Report  overdue by 4 days (2025-03-10)
                done #1 [x] Buy milk #home
                1 open task:
                  #2 [ ] Report  overdue by 4 days (2025-03-10)
                1 overdue task:
                  #2 [ ] Report  overdue by 4 days (2025-03-10)

                """
        )
    }

    @Test func stopsAtTheFirstErrorWithItsLineNumber() async {
        let (succeeded, captured, test) = await run("add A\n\ndone 7\nadd B\n")
        #expect(!succeeded)
        #expect(captured.errors == "error: test:3: there is no task #7 ('list' shows the task numbers)\n")
        #expect(await test.board.tasks.state.1.items.map(\.title) == ["A"])
    }

    @Test func statsShowsThePropsTheDebouncedSubscriptionDelivers() async {
        let test = TestBoard()
        let captured = CapturedConsole()
        #expect(await run("add A -t home\nadd B -t home -t work\ndone 1", on: test, captured: captured).succeeded)
        await test.settleStats()
        let (succeeded, _, _) = await run("stats", on: test, captured: captured)
        #expect(succeeded)
        #expect(captured.output.contains("tasks: 2  open: 1  done: 1  completion: 50%"))
        #expect(captured.output.contains("#home #################### 2"))
    }
}
