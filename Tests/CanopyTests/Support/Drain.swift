import Dispatch

/// Returns once every block submitted to `queues` before the call has run, in the given order.
///
/// Use it off those queues, to flush a pipeline stage by stage (store queue work must be flushed with
/// `await store.state` first). A concurrent queue is drained with a barrier.
func drain(_ queues: DispatchQueue...) {
    for queue in queues {
        queue.sync(flags: .barrier) {}
    }
}
