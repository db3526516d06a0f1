import Canopy

/// The result of one W3 run: throughput, and the latency from `dispatch` to the last observer with one
/// action in flight.
public struct TreeResult: Sendable {
    /// Actions per second, over a fresh tree.
    public var throughput: Throughput
    /// The median latency from `dispatch` to the last observer, one action in flight.
    public var latencyP50Nanoseconds: UInt64
    /// The 99th percentile of the same latency.
    public var latencyP99Nanoseconds: UInt64
}

/// W3, tree: a root with children that each have observers; actions go round-robin to the children.
public enum W3Tree {
    /// The workload's short name.
    public static let name = "W3"
    /// Actions in the throughput part (DESIGN: 100,000).
    public static let defaultActions = 100_000
    /// Children of the root (DESIGN: 10).
    public static let defaultChildren = 10
    /// Observers of each child (DESIGN: 10).
    public static let defaultObserversPerChild = 10
    /// Latency samples per run, each with one action in flight.
    public static let defaultLatencySamples = 2_000

    /// Runs the throughput part, then the latency part, each on a fresh tree, and checks both.
    ///
    /// - Parameters:
    ///   - system: The implementation to run.
    ///   - actions: Actions dispatched round-robin to the children.
    ///   - children: Children of the root.
    ///   - observersPerChild: Raw observers of each child.
    ///   - latencySamples: Actions timed one at a time, from `dispatch` to the last observer.
    /// - Returns: The throughput and the latency percentiles.
    /// - Throws: ``CheckFailure`` when the result does not match what the actions imply.
    public static func run(
        _ system: System,
        actions: Int = defaultActions,
        children: Int = defaultChildren,
        observersPerChild: Int = defaultObserversPerChild,
        latencySamples: Int = defaultLatencySamples
    ) throws(CheckFailure) -> TreeResult {
        let shape = Shape(children: children, observersPerChild: observersPerChild)
        let throughput = try runThroughput(system, actions: actions, shape: shape)
        var latencies: [UInt64] = []
        latencies.reserveCapacity(latencySamples)
        try runLatency(system, samples: latencySamples, shape: shape) { latencies.append($0) }
        return TreeResult(
            throughput: throughput,
            latencyP50Nanoseconds: latencies.isEmpty ? 0 : percentile(latencies, 50),
            latencyP99Nanoseconds: latencies.isEmpty ? 0 : percentile(latencies, 99)
        )
    }

    struct Shape {
        var children: Int
        var observersPerChild: Int
    }

    /// The tree under test, behind one interface for the three systems.
    private struct Tree {
        var dispatch: (_ child: Int) -> Void
        /// Blocks until every action dispatched before is reduced; returns the root and child counts.
        var settle: () -> (root: Int, locals: [Int])
        var keepAlive: Any
    }

    /// What one observer of the tree does.
    ///
    /// Most observers only count the states they get, in ``Counter`` (a closure that captures nothing,
    /// written in each system's own observer form), so that the instruction counts of W3 (run.sh)
    /// measure the tree and not the harness: a closure with a context of its own costs a retain and a
    /// release per call in the floors' loops, which made the floors cost more than seven times what
    /// DESIGN.md measured for them. A few observers are probes, which check exactly what their child
    /// saw: each system calls ``Check/record(_:)`` from a closure in its own observer form too, so that
    /// a probe costs every system one closure call (a closure handed to the observer's closure cost
    /// Canopy a second call, through a conversion thunk: ~15 instructions per probe). The counted
    /// observers are checked only as a total: a system that gave one of them a state too many and
    /// another one too few would pass. Each observer's own count is what the library's tests check
    /// (`Tests/CanopyTests`); here the total guards the measurement.
    private enum Probe {
        case counted
        case probe(Check)
    }

    /// What a probe checks.
    private enum Check: Sendable {
        /// Counts the states the probe got and keeps the last one (throughput).
        case lastState(Tally, LastValue<(Int, Int)>)
        /// Tells `probe` that a state arrived, once `armed` is set (latency).
        case arrival(armed: Tally, probe: LatencyProbe)

        func record(_ state: (Int, Int)) {
            switch self {
            case .lastState(let tally, let last):
                tally.value += 1
                last.value = state
            case .arrival(let armed, let probe):
                if armed.value != 0 {
                    probe.arrive()
                }
            }
        }
    }

    /// Counts the calls of the ``Probe/counted`` observers of every W3 tree in the process.
    enum Counter {
        // Safety: written only by the observers of one tree at a time, which its system calls on one
        // queue (or on the one thread of a floor-sync run), and read by the harness only after
        // synchronising with that queue (`settle`), which orders every write before the read.
        nonisolated(unsafe) static var calls = 0
    }

    /// Builds a tree whose observers are `makeObserver(child, observer)`.
    private static func makeTree(
        _ system: System,
        shape: Shape,
        makeObserver: (_ child: Int, _ observer: Int) -> Probe
    ) -> Tree {
        switch system {
        case .floorSync:
            var tree = FloorTree()
            for child in 0..<shape.children {
                let node = tree.addChild()
                for observer in 0..<shape.observersPerChild {
                    switch makeObserver(child, observer) {
                    case .counted: tree.subscribe(node) { _ in Counter.calls &+= 1 }
                    case .probe(let check): tree.subscribe(node) { check.record($0) }
                    }
                }
            }
            // The closures share `tree` through a box, which costs one dynamic exclusivity check per
            // action: small beside the 100 observer calls.
            return Tree(
                dispatch: { tree.dispatch(toChild: $0) },
                settle: { (tree.root, tree.children.map(\.local)) },
                keepAlive: ()
            )
        case .floorQueue:
            let tree = FloorQueueTree()
            for child in 0..<shape.children {
                tree.addChild(
                    observers: (0..<shape.observersPerChild).map { observer in
                        switch makeObserver(child, observer) {
                        case .counted: FloorObserver { _ in Counter.calls &+= 1 }
                        case .probe(let check): FloorObserver { check.record($0) }
                        }
                    }
                )
            }
            return Tree(dispatch: { tree.dispatch(toChild: $0) }, settle: { tree.settledState() }, keepAlive: tree)
        case .canopy:
            let root = StateStore<Int, Increment>(0) { state, _ in state += 1 }
            let stores = (0..<shape.children).map { child in
                let store = root.with(0) { local, _ in local += 1 }
                for observer in 0..<shape.observersPerChild {
                    switch makeObserver(child, observer) {
                    case .counted:
                        store.subscribe(
                            observer: Observer { _ in
                                Counter.calls &+= 1
                                return .active
                            }
                        )
                    case .probe(let check):
                        store.subscribe(
                            observer: Observer { state in
                                check.record(state)
                                return .active
                            }
                        )
                    }
                }
                return store
            }
            return Tree(
                dispatch: { stores[$0].dispatch(Increment()) },
                settle: {
                    let rootCount = root.settledState()
                    return (rootCount, stores.map { $0.settledState().1 })
                },
                keepAlive: (root, stores)
            )
        }
    }

    private static func runThroughput(_ system: System, actions: Int, shape: Shape) throws(CheckFailure) -> Throughput {
        // Observer 0 of each child is a probe; the others are counted.
        let tallies = (0..<shape.children).map { _ in Tally() }
        let lastSeen = (0..<shape.children).map { _ in LastValue<(Int, Int)>() }
        Counter.calls = 0
        let tree = makeTree(system, shape: shape) { child, observer in
            guard observer == 0 else { return .counted }
            return .probe(.lastState(tallies[child], lastSeen[child]))
        }
        _ = tree.settle()
        var settled = (root: 0, locals: [Int]())
        let result = measureThroughput(actions: actions) {
            for index in 0..<actions {
                tree.dispatch(index % shape.children)
            }
            settled = tree.settle()
        }
        withExtendedLifetime(tree.keepAlive) {}

        try check(settled.root == actions, name, system, "root state \(settled.root), expected \(actions)")
        for child in 0..<shape.children {
            // Round-robin: child `c` receives the actions whose index is `c` modulo the child count.
            let expectedLocal = actions / shape.children + (child < actions % shape.children ? 1 : 0)
            try check(
                settled.locals[child] == expectedLocal,
                name,
                system,
                "child \(child) state \(settled.locals[child]), expected \(expectedLocal)"
            )
            let seen = lastSeen[child].value
            try check(
                seen?.0 == actions && seen?.1 == expectedLocal,
                name,
                system,
                "child \(child)'s observers last saw \(String(describing: seen)), expected (\(actions), \(expectedLocal))"
            )
            // The current state on subscribing, then one state per action anywhere in the tree.
            try check(
                tallies[child].value == 1 + actions,
                name,
                system,
                "child \(child)'s probe got \(tallies[child].value) states, expected \(1 + actions)"
            )
        }
        let counted = shape.children * (shape.observersPerChild - 1) * (1 + actions)
        try check(
            Counter.calls == counted,
            name,
            system,
            "the counted observers got \(Counter.calls) states in all, expected \(counted)"
        )
        return result
    }

    private static func runLatency(
        _ system: System,
        samples: Int,
        shape: Shape,
        record: (UInt64) -> Void
    ) throws(CheckFailure) {
        guard samples > 0 else { return }
        let probe = LatencyProbe()
        let armed = Tally()
        let lastChild = shape.children - 1
        let lastObserver = shape.observersPerChild - 1
        let tree = makeTree(system, shape: shape) { child, observer in
            guard child == lastChild, observer == lastObserver else { return .counted }
            return .probe(.arrival(armed: armed, probe: probe))
        }
        _ = tree.settle()
        // Safety of `armed`: written here before any sampled dispatch; `dispatch` hands the write to the
        // queue (a lock or `async`), which orders it before the observer reads it.
        armed.value = 1
        for index in 0..<samples {
            let start = now()
            tree.dispatch(index % shape.children)
            let arrival = probe.waitForArrival()
            record(arrival - start)
        }
        let settled = tree.settle()
        withExtendedLifetime(tree.keepAlive) {}
        try check(settled.root == samples, name, system, "latency tree root state \(settled.root), expected \(samples)")
    }
}
