import CanopyTestSupport
import Dispatch
import Testing

/// Returns once every block submitted to `queues` before the call has run, in the given order.
///
/// Use it off those queues, to flush a pipeline stage by stage (store queue work must be flushed with
/// `await store.state` first). A concurrent queue is drained with a barrier. A queue that does not get
/// there within the wait bound records an issue at the caller.
func drain(_ queues: DispatchQueue..., sourceLocation: SourceLocation = #_sourceLocation) {
    for queue in queues {
        let drained = DispatchSemaphore(value: 0)
        queue.async(flags: .barrier) { drained.signal() }
        boundedWait(on: drained, for: "queue \(queue.label) to drain", sourceLocation: sourceLocation)
    }
}
