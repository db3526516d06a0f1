import Dispatch

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Carries out an effect operator on the store queue: feeds each state to its trigger and state machine,
/// calls the factory, and starts and cancels ``EffectRun``s.
///
/// The store's observer closure is its only owner, so it lives exactly as long as the store's node.
/// When the node goes, `deinit` cancels every run: delayed work never runs and tasks are cancelled.
final class EffectRunner<Trigger: EffectTrigger, Action: Sendable>: Sendable where Trigger.State: Sendable {
    typealias State = Trigger.State
    typealias Factory = @Sendable (State, Trigger.Key, @escaping Dispatch<Action>) -> Effect

    private struct Decisions: Sendable {
        var trigger: Trigger
        var machine = EffectStateMachine<Trigger.Key>()

        mutating func update(with state: Trigger.State) -> [EffectStateMachine<Trigger.Key>.Command] {
            machine.requestsChanged(to: trigger.requests(for: state))
        }
    }

    /// A handle that does not keep the store alive; results of runs go through it.
    private let target: any StoreHandle<State, Action>
    private let effectQueue: DispatchQueue
    private let create: Factory
    private let decisions: QueueConfined<Decisions>
    // Kept in a lock rather than with `decisions` because `deinit` may run on any thread.
    private let runs = LockedValue<[Trigger.Key: EffectRun]>([:])

    // `target` must not retain the store (it is a `WeakHandle`).
    init(target: any StoreHandle<State, Action>, trigger: Trigger, queue: DispatchQueue, create: @escaping Factory) {
        self.target = target
        self.effectQueue = queue
        self.create = create
        self.decisions = QueueConfined(Decisions(trigger: trigger), queue: target.queue)
    }

    deinit {
        for run in runs.exchange([:]).values {
            run.cancel()
        }
    }

    /// On the store queue: the store has a new state.
    func update(_ state: State) {
        let commands = decisions.value.update(with: state)
        for command in commands {
            switch command {
            case .cancel(let key):
                runs.withLock { $0.removeValue(forKey: key) }?.cancel()
            case .start(let key, let delay):
                start(key, delay: delay, state: state)
            }
        }
    }

    /// On the store queue: asks the factory for `key`'s effect and starts it.
    private func start(_ key: Trigger.Key, delay: TimeInterval, state: State) {
        let run = EffectRun(causes: target.tree.causesOfDispatchNow)
        let effect = create(state, key, dispatch(for: run))
        if case .postpone = effect.operation {
            decisions.value.machine.postponed(key)
            return
        }
        runs.withLock { $0[key] = run }
        run.start(effect.operation, after: delay, on: effectQueue, scheduler: target.scheduler)
    }

    /// A dispatch for one run. It holds the store weakly, and decides on the store queue, right before
    /// reducing, whether the run is still current; if not, the action is dropped.
    private func dispatch(for run: EffectRun) -> Dispatch<Action> {
        { [target] action in
            target.dispatch(action, from: run)
        }
    }
}
