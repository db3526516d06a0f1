import CanopyTestSupport
import Dispatch
import Testing

@testable import Canopy

extension StateStore {
    /// The tree's serial queue.
    var queue: DispatchQueue { handle.queue }
}

/// Returns once everything already submitted to `queue` has run and been released.
///
/// Dispatch releases a block right after running it, so when a block submitted now runs, every block
/// before it (and what it captured) is gone. This is an explicit signal, not a wait on the clock.
func settle(_ queue: DispatchQueue, sourceLocation: SourceLocation = #_sourceLocation) async {
    _ = await boundedWait(for: "queue \(queue.label) to settle", sourceLocation: sourceLocation) { resume in
        queue.async { resume(()) }
    }
}

/// An object whose release a test can watch through a ``WeakRef``.
final class Tracked: Sendable {
    let name: String

    init(_ name: String = "") {
        self.name = name
    }
}
