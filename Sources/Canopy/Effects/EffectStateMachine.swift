#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Decides which effect runs to start and which to cancel as an operator's requests change.
///
/// It knows nothing about tasks or queues: it receives the runs each new state requests (see
/// ``EffectTrigger``) and returns commands, which its ``EffectRunner`` carries out on the store queue.
///
/// - A key that is requested and unknown starts, once.
/// - A key that is no longer requested is cancelled (if it started) and forgotten.
/// - A key whose factory returned ``Effect/postpone`` is asked again on the next state that still
///   requests it.
struct EffectStateMachine<Key: Hashable & Sendable>: Sendable {
    enum Command: Hashable, Sendable {
        /// Ask the factory for this key's effect and run it after `delay` seconds.
        case start(Key, delay: TimeInterval)
        /// Cancel this key's run: pending work is dropped, a running task is cancelled, and the run's
        /// late actions are ignored.
        case cancel(Key)
    }

    private enum RunPhase: Sendable {
        case started
        case postponed
    }

    private struct Run: Sendable {
        var phase: RunPhase
        /// Start order, so cancellations come out in a predictable order.
        let sequence: UInt64
    }

    private var runs: [Key: Run] = [:]
    private var nextSequence: UInt64 = 0

    init() {}

    /// Whether no run is started or postponed.
    var isEmpty: Bool { runs.isEmpty }

    /// A new state requests exactly `requests`; returns the cancellations, in start order, then the
    /// starts, in request order.
    mutating func requestsChanged<Requests: Collection<EffectRequest<Key>>>(to requests: Requests) -> [Command] {
        // Nothing requested and nothing running: the common case for an idle effect, with no work.
        if requests.isEmpty && runs.isEmpty { return [] }
        var commands: [Command] = []
        if !runs.isEmpty {
            commands = cancellations(keeping: requests)
        }
        for request in requests {
            switch runs[request.key]?.phase {
            case .started:
                continue
            case .postponed:
                runs[request.key]?.phase = .started
            case nil:
                runs[request.key] = Run(phase: .started, sequence: nextSequence)
                nextSequence += 1
            }
            commands.append(.start(request.key, delay: request.delay))
        }
        return commands
    }

    /// The factory returned ``Effect/postpone`` for `key`: nothing runs, and the next state that still
    /// requests `key` starts it again.
    mutating func postponed(_ key: Key) {
        guard runs[key]?.phase == .started else { return }
        runs[key]?.phase = .postponed
    }

    private mutating func cancellations<Requests: Collection<EffectRequest<Key>>>(
        keeping requests: Requests
    ) -> [Command] {
        // Few requests (the usual case) are searched in place; many go through a set.
        let keys: Set<Key>? = requests.count > 8 ? Set(requests.lazy.map(\.key)) : nil
        var gone: [(key: Key, run: Run)] = []
        for (key, run) in runs {
            let isRequested = keys?.contains(key) ?? requests.contains { $0.key == key }
            if !isRequested {
                gone.append((key, run))
            }
        }
        guard !gone.isEmpty else { return [] }
        for (key, _) in gone {
            runs[key] = nil
        }
        return gone.filter { $0.run.phase == .started }
            .sorted { $0.run.sequence < $1.run.sequence }
            .map { .cancel($0.key) }
    }
}
