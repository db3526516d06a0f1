import CanopyTestSupport
import Dispatch

/// Records what an async effect body goes through — started, cancelled, finished — so a test can check
/// that cancelling the effect reached the running task.
///
/// ``waitForCancellation()`` records `cancelled` from the cancellation handler, which runs synchronously
/// in whatever cancels the task: once the cancelling call has returned, the event is there.
final class CancellationProbe: Sendable {
    enum Event: Equatable, Sendable {
        case started(Int)
        case cancelled(Int)
        case finished(Int)
    }

    let events = StateRecorder<Event>()

    /// Records `started(run)`, suspends until the current task is cancelled, then records
    /// `finished(run)` if the task ended without being cancelled (it cannot, unless cancellation is
    /// broken: then it ends after the wait bound, so the test fails on the events instead of hanging).
    func waitForCancellation(run: Int = 0) async {
        let (stream, continuation) = AsyncStream<Never>.makeStream()
        let bound = DispatchTime.now() + .seconds(waitBoundSeconds)
        DispatchQueue.global().asyncAfter(deadline: bound) {  // allowed: a bound that fails instead of hanging
            continuation.finish()
        }
        await withTaskCancellationHandler {
            events.record(.started(run))
            for await _ in stream {}
        } onCancel: {
            events.record(.cancelled(run))
            continuation.finish()
        }
        if !Task.isCancelled {
            events.record(.finished(run))
        }
    }

    var values: [Event] { events.values }
}
