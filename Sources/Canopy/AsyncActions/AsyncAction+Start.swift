import Dispatch

extension AsyncAction {
    /// Runs ``execute(completeHandler:)`` on ``dispatchQueue``; each result goes to `store`, which should
    /// be a handle that does not keep the store alive. A result that is not a `StoreAction` is dropped,
    /// and reported in debug builds.
    func start<StoreAction>(resultsTo store: some StoreHandle<some Sendable, StoreAction>) {
        asyncAction(self, resultsTo: store)
    }
}

/// The one place an `AsyncAction` starts: after it was reduced, by the node or view that received it.
private func asyncAction<Async: AsyncAction, StoreAction>(
    _ asyncAction: Async,
    resultsTo store: some StoreHandle<some Sendable, StoreAction>
) {
    asyncAction.dispatchQueue.async {
        asyncAction.execute { result in
            guard let action = result as? StoreAction else {
                assertionFailure(
                    "AsyncAction \(Async.self) completed with \(type(of: result)), which is not an action of "
                        + "this store (\(StoreAction.self)); the result is dropped"
                )
                return
            }
            store.dispatch(action)
        }
    }
}
