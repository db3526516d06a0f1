import Synchronization

@testable import TaskBoard

/// Records what the save effect writes; fails the first `failures` writes.
final class RecordingWriter: Sendable {
    struct DiskFull: Error, CustomStringConvertible {
        var description: String { "no space left on device" }
    }

    private let state: Mutex<(failuresLeft: Int, attempts: Int, writes: [TasksSnapshot])>

    init(failures: Int) {
        state = Mutex((failures, 0, []))
    }

    var writes: [TasksSnapshot] { state.withLock { $0.writes } }
    var attempts: Int { state.withLock { $0.attempts } }

    @Sendable func write(_ snapshot: TasksSnapshot) throws {
        let fail = state.withLock { state in
            state.attempts += 1
            guard state.failuresLeft > 0 else {
                state.writes.append(snapshot)
                return false
            }
            state.failuresLeft -= 1
            return true
        }
        if fail { throw DiskFull() }
    }
}
