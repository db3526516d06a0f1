import Canopy

/// The Search feature's state, owned by the `search` child store (below `tasks`, so it sees the tasks).
///
/// Each new query is a new ``Request``; `SearchMiddleware` starts a run by id for it that waits out the
/// debounce delay and searches. A newer request cancels the run of the older one, and results for
/// anything but the current request are ignored.
struct SearchState: Equatable, Sendable {
    /// One query as typed. `serial` makes a repeated query a new request, so it searches again.
    struct Request: Equatable, Sendable {
        var text = ""
        var serial = 0

        /// The request that follows this one when `typed` is entered: its words joined by single spaces,
        /// and the next serial.
        func next(text typed: String) -> Request {
            Request(text: typed.split(whereSeparator: \.isWhitespace).joined(separator: " "), serial: serial + 1)
        }
    }

    enum Phase: Equatable, Sendable {
        /// No query.
        case idle
        /// Waiting for the debounce delay to pass without a newer query.
        case debouncing
        case searching
        case done
    }

    var request = Request()
    var phase = Phase.idle
    /// The results of the current request, once it finished.
    var results: SearchResults?
    /// How many queries were replaced before their results arrived, in all.
    var superseded = 0
    /// How many queries the current results replaced (typed since the results before them).
    var supersededByResults = 0
    private var supersededSinceResults = 0

    /// Whether the current request is still waiting for results.
    var isPending: Bool {
        phase == .debouncing || phase == .searching
    }

    /// The Search reducer, scoped to the Search actions.
    static let reducer: Reducer<SearchState, AppAction> = Reducers.scope(
        state: \.self,
        action: \.search,
        reducer: { state, action in state.reduce(action) }
    )

    private mutating func reduce(_ action: SearchAction) {
        switch action {
        case .setQuery(let text):
            if isPending { countSuperseded() }
            request = request.next(text: text)
            results = nil
            phase = request.text.isEmpty ? .idle : .debouncing
        case .started(let serial):
            guard serial == request.serial, phase == .debouncing else { return }
            phase = .searching
        case .finished(let found):
            guard found.serial == request.serial, isPending else { return }
            results = found
            supersededByResults = supersededSinceResults
            supersededSinceResults = 0
            phase = .done
        case .clear:
            if isPending { countSuperseded() }
            request = Request(text: "", serial: request.serial + 1)
            results = nil
            phase = .idle
        }
    }

    private mutating func countSuperseded() {
        superseded += 1
        supersededSinceResults += 1
    }
}
