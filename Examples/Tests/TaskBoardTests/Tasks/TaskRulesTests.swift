import Canopy
import Testing

@testable import TaskBoard

@Suite(.timeLimit(.minutes(1))) struct TaskRulesTests {
    @Test func anEmptyOrBlankTitleBreaksTheRuleOtherActionsDoNot() {
        #expect(TaskRules.problem(with: .tasks(.add(title: ""))) == "a task needs a title")
        #expect(TaskRules.problem(with: .tasks(.add(title: " \t\n"))) == "a task needs a title")
        #expect(TaskRules.problem(with: .tasks(.rename(id: 1, title: "  "))) == "a task needs a title")
        #expect(TaskRules.problem(with: .tasks(.add(title: " Milk "))) == nil)
        #expect(TaskRules.problem(with: .tasks(.complete(id: 1))) == nil)
        #expect(TaskRules.problem(with: .sync(.cancel)) == nil)
    }

    @Test func theMiddlewareBlocksABlankTitleAndNoReducerRuns() async {
        let test = TestBoard(saving: false)
        let blocked = await test.board.tasks.outcome(of: .tasks(.add(title: "   ")))
        guard case .blocked = blocked else {
            Issue.record("expected .blocked, got \(blocked)")
            return
        }
        let state = await test.board.tasks.state
        #expect(state.1.items.isEmpty)
        #expect(state.1.revision == 0)
        #expect(state.0.actionCount == 0, "the root reducer did not run either")

        let added = await test.board.tasks.outcome(of: .tasks(.add(title: " Milk ")))
        #expect(added.state?.1.items.map(\.title) == ["Milk"])
    }

    @Test func aCommandWithABlankTitleFailsWithTheRule() async {
        let test = TestBoard(saving: false)
        let (succeeded, captured) = await test.runScript("add Milk\nrename 1 \"  \"\n")
        #expect(!succeeded)
        #expect(captured.errors == "error: test:2: a task needs a title\n")
        #expect(await test.board.tasks.state.1.items.map(\.title) == ["Milk"])
    }
}
