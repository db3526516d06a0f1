import Dispatch

/// Waits, without blocking a thread, until a serial queue has run everything submitted to it before.
enum QueueBarrier {
    /// Returns once `queue` has finished the work it had when this was called.
    static func pass(_ queue: DispatchQueue) async {
        await withCheckedContinuation { continuation in
            queue.async { continuation.resume() }
        }
    }
}
