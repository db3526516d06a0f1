import Testing

@testable import Canopy

/// The examples of Docs/Pipeline.md that do not need a store, kept compiling and checked. The
/// middleware examples run through `PipelineHarness` until stores take middleware.
@Suite struct PipelineDocExamplesTests {
    struct Filter: Equatable, Sendable {
        var text = ""
        static func reduce(_ filter: inout Filter, _ action: FilterAction) {
            if case .set(let text) = action { filter.text = text }
        }
    }

    enum FilterAction: Sendable { case set(String) }

    struct TaskItem: Identifiable, Equatable, Sendable {
        let id: Int
        var done = false
        static func reduce(_ task: inout TaskItem, _ action: TaskAction) {
            if case .toggle = action { task.done.toggle() }
        }
    }

    enum TaskAction: Sendable { case toggle }

    struct Editor: Equatable, Sendable {
        var draft = ""
        static func reduce(_ editor: inout Editor, _ action: EditorAction) {
            if case .type(let text) = action { editor.draft += text }
        }
    }

    enum EditorAction: Sendable { case type(String) }

    struct Board: Equatable, Sendable {
        var filter = Filter()
        var tasks: [TaskItem] = []
        var editor: Editor?
    }

    enum BoardAction: Sendable {
        case filter(FilterAction)
        case task(id: TaskItem.ID, TaskAction)
        case editor(EditorAction)
        case clearAll

        static func filterAction(_ action: Self) -> FilterAction? {
            if case .filter(let action) = action { action } else { nil }
        }
        static func taskAction(_ action: Self) -> (TaskItem.ID, TaskAction)? {
            if case .task(let id, let action) = action { (id, action) } else { nil }
        }
        static func editorAction(_ action: Self) -> EditorAction? {
            if case .editor(let action) = action { action } else { nil }
        }
    }

    @Test func composingReducers() {
        let boardReducer: Reducer<Board, BoardAction> = Reducers.combine(
            Reducers.scope(state: \.filter, action: BoardAction.filterAction, reducer: Filter.reduce),
            Reducers.forEach(\.tasks, action: BoardAction.taskAction, reducer: TaskItem.reduce),
            Reducers.ifLet(state: \.editor, action: BoardAction.editorAction, reducer: Editor.reduce),
            { board, action in if case .clearAll = action { board.tasks.removeAll() } }
        )
        var board = Board(tasks: [TaskItem(id: 1), TaskItem(id: 2)])
        for action in [BoardAction.filter(.set("ship")), .task(id: 2, .toggle), .editor(.type("x"))] {
            boardReducer(&board, action)
        }
        #expect(board == Board(filter: Filter(text: "ship"), tasks: [TaskItem(id: 1), TaskItem(id: 2, done: true)]))
        board.editor = Editor()
        boardReducer(&board, .editor(.type("x")))
        boardReducer(&board, .clearAll)
        #expect(board == Board(filter: Filter(text: "ship"), tasks: [], editor: Editor(draft: "x")))
    }

    enum CounterAction: Equatable, Sendable {
        case reset
        case add(Int)
        case logAdded
        case importFile(String)
    }

    struct Counter: Sendable {
        var value = 0
        var isLocked = false
    }

    enum ImportError: Error { case notJSON(String) }

    @Test func middlewareDecidesTheOutcome() {
        let policy = Middleware<Counter, CounterAction>("policy") { action, context in
            switch action {
            case .reset where context.state.isLocked:
                return  // block: no reducer runs
            case .add(let amount) where amount > 100:
                context.next(.add(100))  // transform: the reducers see .add(100)
            case .add:
                context.next(action)  // forward
                context.dispatch(.logAdded)  // and queue a follow-up
            case .importFile(let path):
                guard path.hasSuffix(".json") else { throw ImportError.notJSON(path) }  // fail
                context.next(action)
            default:
                context.next(action)
            }
        }
        let harness = PipelineHarness([policy])
        #expect(harness.run(.reset, state: Counter(isLocked: true)).summary == "blocked(policy)")
        #expect(harness.run(.reset, state: Counter()).summary == "forward(reset)")
        #expect(harness.run(.add(500), state: Counter()).summary == "forward(add(100))")
        #expect(harness.run(.add(1), state: Counter()).summary == "forward(add(1))")
        #expect(harness.dispatched.values.map(\.action) == [.logAdded])
        #expect(harness.run(.importFile("a.txt"), state: Counter()).summary == "failed(notJSON(\"a.txt\"))")
    }
}
