import Dispatch

@testable import Canopy

/// Runs `body` on a queue of its own with the proof of a drain's turn (``DrainTurn``), for tests that run
/// an inbox's batches themselves, as a tree's drain does.
func asDrain<Result>(_ body: (borrowing DrainTurn) -> Result) -> Result {
    let queue = DispatchQueue(label: "canopy.tests.drain")
    return queue.sync {
        let turn = DrainTurn.checked(on: queue)
        return body(turn)
    }
}
