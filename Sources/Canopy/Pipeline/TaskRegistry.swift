import Dispatch

/// The work a store tree started by id: which runs are in flight under each id, and how to cancel them.
///
/// One registry belongs to one tree, so the same id in two trees names two unrelated runs. Each run is
/// an ``EffectRun``: cancelling it cancels its task, and the engine drops the actions it sent once it is
/// no longer current, right before they would reach the middleware. A run that ends by itself stays
/// current, so the actions it sent just before ending are still reduced. Releasing the registry (with its
/// tree) cancels everything. Every member may be called from any thread.
final class TaskRegistry: Sendable {
    private struct Entry: Sendable {
        let serial: UInt64
        let run: EffectRun
        let store: StoreID
    }

    private struct Storage: Sendable {
        var runs: [RunKey: [Entry]] = [:]
        var nextSerial: UInt64 = 0
        var isClosed = false
    }

    /// The tree's queue; tasks are started from it.
    let queue: DispatchQueue
    /// The tree's clock, lent to the runs for ``TaskContext/sleep(for:)``.
    let scheduler: any DelayScheduler
    private let diagnostics: (any StoreDiagnostics)?
    private let storage = LockedValue(Storage())

    init(queue: DispatchQueue, scheduler: any DelayScheduler, diagnostics: (any StoreDiagnostics)? = nil) {
        self.queue = queue
        self.scheduler = scheduler
        self.diagnostics = diagnostics
    }

    deinit {
        cancelAll()
    }

    /// Starts `operation` in a new task under `id`, on behalf of the node `store`.
    ///
    /// - Parameters:
    ///   - id: The run's id in this tree.
    ///   - cancelInFlight: Whether to cancel the runs already under `id` first.
    ///   - store: The node the run is for: ids are independent per node, and diagnostics name it.
    ///   - deliver: Queues an action for the node, to be dropped if the run is no longer current.
    ///   - operation: The work.
    func run<ID: Hashable & Sendable, Action>(
        id: ID,
        cancelInFlight: Bool,
        store: StoreID,
        deliver: @escaping @Sendable (Action, EffectRun) -> Void,
        operation: @escaping @Sendable (TaskContext<Action>) async throws -> Void
    ) {
        let key = RunKey(store: store, id: id)
        let run = EffectRun()
        let (serial, replaced) = storage.withLock { storage -> (UInt64?, [Entry]) in
            guard !storage.isClosed else { return (nil, []) }
            let replaced = cancelInFlight ? storage.runs.removeValue(forKey: key) ?? [] : []
            let serial = storage.nextSerial
            storage.nextSerial += 1
            storage.runs[key, default: []].append(Entry(serial: serial, run: run, store: store))
            return (serial, replaced)
        }
        cancel(replaced, id: key)
        guard let serial else { return }
        diagnostics?.record(.effectStarted(store: store, id: String(describing: id)))
        let context = TaskContext(run: run, deliver: deliver, scheduler: scheduler, queue: queue)
        let body: @Sendable () async -> Void = { [weak self] in
            do {
                try await operation(context)
                self?.finished(key, serial: serial, error: nil)
            } catch {
                self?.finished(key, serial: serial, error: error)
            }
        }
        run.start(.async(body), after: 0, on: queue, scheduler: scheduler)
    }

    /// Cancels every run under `id` for the node `store`.
    func cancel<ID: Hashable & Sendable>(id: ID, store: StoreID = .root) {
        let key = RunKey(store: store, id: id)
        cancel(storage.withLock { $0.runs.removeValue(forKey: key) } ?? [], id: key)
    }

    /// Cancels every run and refuses new ones; the tree is going away.
    func cancelAll() {
        let runs = storage.withLock { storage in
            storage.isClosed = true
            defer { storage.runs = [:] }
            return storage.runs
        }
        for (key, entries) in runs {
            cancel(entries, id: key)
        }
    }

    /// The number of runs under `id` for the node `store` that have neither ended nor been cancelled.
    func inFlightCount<ID: Hashable & Sendable>(id: ID, store: StoreID = .root) -> Int {
        let key = RunKey(store: store, id: id)
        return storage.withLock { $0.runs[key]?.count ?? 0 }
    }

    private func cancel(_ entries: [Entry], id: RunKey) {
        for entry in entries {
            entry.run.cancel()
            diagnostics?.record(.effectCancelled(store: entry.store, id: String(describing: id.id)))
        }
    }

    /// From the run's task: it ended (with `error` if it threw). A run already cancelled is not reported.
    private func finished(_ key: RunKey, serial: UInt64, error: (any Error)?) {
        let entry = storage.withLock { storage -> Entry? in
            guard let index = storage.runs[key]?.firstIndex(where: { $0.serial == serial }) else { return nil }
            let entry = storage.runs[key]!.remove(at: index)
            if storage.runs[key]!.isEmpty {
                storage.runs[key] = nil
            }
            return entry
        }
        guard let entry, let diagnostics else { return }
        let id = String(describing: key.id)
        if let error, !(error is CancellationError) {
            diagnostics.record(.error(store: entry.store, action: "run \(id)", source: "run \(id)", error: error))
        }
        diagnostics.record(.effectFinished(store: entry.store, id: id))
    }
}

/// A run id of any type, as a dictionary key.
private struct RunKey: Hashable, Sendable {
    /// The node the work is for: the same id for two nodes names two independent runs.
    let store: StoreID
    let id: any Hashable & Sendable

    static func == (lhs: RunKey, rhs: RunKey) -> Bool {
        lhs.store == rhs.store && AnyHashable(lhs.id) == AnyHashable(rhs.id)
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(store)
        hasher.combine(AnyHashable(id))
    }
}
