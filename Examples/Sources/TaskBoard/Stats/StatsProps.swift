/// The numbers the `stats` command shows, computed from one state of the `stats` store.
///
/// It is a pure function of the tasks, today's date and the Stats options, so it can run on the
/// presentation queue, away from the store's queue, and be tested as a plain value.
struct StatsProps: Equatable, Sendable {
    struct TagCount: Equatable, Sendable {
        let tag: String
        let count: Int
    }

    /// What the props were computed from; `stats` waits for props with the current input.
    struct Input: Equatable, Sendable {
        let revision: Int
        let today: Day
        let topTags: Int

        init(revision: Int, today: Day, topTags: Int) {
            self.revision = revision
            self.today = today
            self.topTags = topTags
        }

        /// The input of a `stats` store state.
        init(_ state: StatsStoreState) {
            self.init(revision: state.0.1.revision, today: state.0.0.today, topTags: state.1.topTags)
        }
    }

    let input: Input
    let total: Int
    let open: Int
    let done: Int
    let overdue: Int
    let dueToday: Int
    /// Done tasks over all tasks, from 0 to 1; `nil` on an empty board.
    let completionRate: Double?
    /// The most used tags, most used first (ties by name), at most `topTags` of them.
    let topTags: [TagCount]
    /// How many more tags there are beyond `topTags`.
    let otherTagCount: Int
    let untagged: Int

    init(tasks: TasksState, today: Day, options: StatsState) {
        input = Input(revision: tasks.revision, today: today, topTags: options.topTags)
        let items = tasks.items
        total = items.count
        done = items.filter(\.isDone).count
        open = total - done
        overdue = items.filter { $0.isOverdue(today: today) }.count
        dueToday = items.filter { !$0.isDone && $0.due == today }.count
        completionRate = total == 0 ? nil : Double(done) / Double(total)
        var counts: [String: Int] = [:]
        for tag in items.flatMap(\.tags) {
            counts[tag, default: 0] += 1
        }
        let ranked = counts.map { TagCount(tag: $0.key, count: $0.value) }
            .sorted { ($1.count, $0.tag) < ($0.count, $1.tag) }
        topTags = Array(ranked.prefix(options.topTags))
        otherTagCount = max(0, ranked.count - options.topTags)
        untagged = items.filter(\.tags.isEmpty).count
    }

    /// The props of a `stats` store state.
    init(_ state: StatsStoreState) {
        self.init(tasks: state.0.1, today: state.0.0.today, options: state.1)
    }
}
