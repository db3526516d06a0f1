import Workloads

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// Runs one workload once, at a given size, and checks its result.
//
//     canopy-workload <workload…|all> [--system floor-sync|floor-queue|canopy|all] [--size N]
//                     [--children K] [--observers N] [--latency-samples N] [--subscriber checked|raw|deduplicating]
//                     [--quiet]
//
// Workloads: w1–w5, w1-middleware, tree-width, subscribe, and, Canopy only, tree-width-middleware,
// subscribe-dedup, subscribe-props, child-slope, dropped-children, w1-recorded, w1-persisted and persist-drain.
// `--size` is the number of actions (W1–W3, w1-middleware, w1-recorded, w1-persisted, tree-width,
// tree-width-middleware, child-slope), subscribers and children (W4), actions per producer (W5), subscriptions (subscribe,
// subscribe-dedup, subscribe-props), loop iterations (dropped-children) or rounds of 1,000 changed entities
// (persist-drain). `--children` is tree-width's (and tree-width-middleware's) width, W3's and child-slope's number of children,
// `--observers` W2's number of subscriptions, `--latency-samples` W3's latency samples (0 for throughput
// only), `--subscriber` how child-slope observes each child.
//
// `smoke.sh` runs every workload at a small size; `run.sh` runs them under callgrind at two sizes to count
// instructions per action or per subscription. A failed check prints the reason and exits with status 1.

struct Options {
    var workloads: [String] = []
    var systems: [System] = System.allCases
    var size: Int?
    var children = 10
    var observers = W2FanOut.defaultObservers
    var latencySamples: Int?
    var subscriber = ChildSlope.Subscriber.raw
    var quiet = false
}

let allWorkloads = [
    "w1", "w1-middleware", "w2", "w3", "w4", "w5", "tree-width", "tree-width-middleware", "subscribe",
    "subscribe-dedup", "subscribe-props", "child-slope", "dropped-children", "w1-recorded", "w1-persisted",
    "persist-drain",
]

func usage() -> Never {
    print(
        """
        usage: canopy-workload <w1|w1-middleware|w2|w3|w4|w5|tree-width|tree-width-middleware|subscribe|
                                subscribe-dedup|subscribe-props|child-slope|dropped-children|w1-recorded|w1-persisted|
                                persist-drain|all>...
                               [--system floor-sync|floor-queue|canopy|all] [--size N] [--children K]
                               [--observers N] [--latency-samples N] [--subscriber checked|raw|deduplicating] [--quiet]
        """
    )
    exit(2)
}

func parse(_ arguments: [String]) -> Options {
    var options = Options()
    var remaining = arguments[...]
    while let argument = remaining.popFirst() {
        switch argument {
        case "--system":
            guard let value = remaining.popFirst() else { usage() }
            if value == "all" {
                options.systems = System.allCases
            } else if let system = System(rawValue: value) {
                options.systems = [system]
            } else {
                usage()
            }
        case "--size":
            guard let value = remaining.popFirst(), let size = Int(value), size >= 0 else { usage() }
            options.size = size
        case "--children":
            guard let value = remaining.popFirst(), let children = Int(value), children > 0 else { usage() }
            options.children = children
        case "--observers":
            guard let value = remaining.popFirst(), let observers = Int(value), observers >= 0 else { usage() }
            options.observers = observers
        case "--latency-samples":
            guard let value = remaining.popFirst(), let samples = Int(value), samples >= 0 else { usage() }
            options.latencySamples = samples
        case "--subscriber":
            guard let value = remaining.popFirst(), let subscriber = ChildSlope.Subscriber(rawValue: value) else {
                usage()
            }
            options.subscriber = subscriber
        case "--quiet":
            options.quiet = true
        case "all":
            options.workloads = allWorkloads
        case _ where allWorkloads.contains(argument):
            options.workloads.append(argument)
        default:
            usage()
        }
    }
    if options.workloads.isEmpty { usage() }
    return options
}

func format(_ value: Double, _ digits: Int = 1) -> String {
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    let rounded = (value * scale).rounded() / scale
    return "\(rounded)"
}

func describe(_ throughput: Throughput) -> String {
    var text = "\(format(throughput.actionsPerSecond / 1_000, 1)) k actions/s"
    if let allocations = throughput.allocationsPerAction {
        text += ", \(format(allocations, 3)) allocations/action"
    }
    return text
}

func run(_ workload: String, _ system: System, _ options: Options) throws(CheckFailure) -> String? {
    let size = options.size
    switch workload {
    case "w1":
        let result = try W1DispatchThroughput.run(system, actions: size ?? W1DispatchThroughput.defaultActions)
        return "W1 \(system.rawValue) (\(result.actions) actions): \(describe(result))"
    case "w1-middleware":
        let result = try W1Middleware.run(system, actions: size ?? W1DispatchThroughput.defaultActions)
        return "W1 middleware \(system.rawValue) (\(result.actions) actions): \(describe(result))"
    case "w2":
        let result = try W2FanOut.run(system, actions: size ?? W2FanOut.defaultActions, observers: options.observers)
        return "W2 \(system.rawValue) (\(result.actions) actions, \(options.observers) subscriptions): "
            + describe(result)
    case "w3":
        let actions = size ?? W3Tree.defaultActions
        let samples = options.latencySamples ?? min(W3Tree.defaultLatencySamples, max(actions / 10, 1))
        let result = try W3Tree.run(system, actions: actions, children: options.children, latencySamples: samples)
        return "W3 \(system.rawValue) (\(actions) actions, \(samples) latency samples): "
            + "\(describe(result.throughput)), latency p50 \(format(Double(result.latencyP50Nanoseconds) / 1_000, 2)) µs, "
            + "p99 \(format(Double(result.latencyP99Nanoseconds) / 1_000, 2)) µs"
    case "w4":
        let count = max(size ?? W4Memory.defaultCount, 1)
        let result = try W4Memory.run(system, count: count)
        var text = "W4 \(system.rawValue) (\(count) subscribers, \(count) children)"
        if let subscriber = result.bytesPerSubscriber, let child = result.bytesPerChild {
            text += ": \(format(subscriber)) B per subscriber, \(format(child)) B per child store with one observer"
        } else {
            text += ": heap not counted here (the benchmark suite counts it)"
        }
        return text
    case "w5":
        let result = try W5TwoProducers.run(
            system,
            actionsPerProducer: size ?? W5TwoProducers.defaultActionsPerProducer
        )
        return "W5 \(system.rawValue) (2 × \(result.actions / 2) actions): \(describe(result))"
    case "tree-width":
        let result = try TreeWidth.run(system, children: options.children, actions: size ?? TreeWidth.defaultActions)
        return "tree-width \(system.rawValue) (\(options.children) children, \(result.actions) actions to one): "
            + describe(result)
    case "tree-width-middleware":
        // Canopy only: tree-width with one pass-through middleware on the root.
        guard system == .canopy else { return nil }
        let result = try TreeWidth.run(
            system,
            children: options.children,
            actions: size ?? TreeWidth.defaultActions,
            rootMiddleware: true
        )
        return "tree-width-middleware canopy (\(options.children) children, \(result.actions) actions to one, "
            + "one pass-through middleware on the root): \(describe(result))"
    case "subscribe":
        let result = try SubscribeCost.run(system, count: size ?? SubscribeCost.defaultCount)
        return "subscribe \(system.rawValue) (\(result.actions) subscriptions): "
            + "\(format(result.actionsPerSecond / 1_000, 1)) k subscriptions/s"
    case "subscribe-dedup":
        // Canopy only: deduplicating subscriptions made and cancelled (issue 32).
        guard system == .canopy else { return nil }
        let result = try SubscribeDedupCost.run(count: size ?? SubscribeDedupCost.defaultCount)
        return "subscribe-dedup canopy (\(result.actions) subscriptions, cancelled): "
            + "\(format(result.actionsPerSecond / 1_000, 1)) k subscriptions/s"
    case "subscribe-props":
        // Canopy only: props subscriptions through the subscriber pipeline, made and cancelled.
        guard system == .canopy else { return nil }
        let result = try SubscribePropsCost.run(count: size ?? SubscribePropsCost.defaultCount)
        return "subscribe-props canopy (\(result.actions) subscriptions, cancelled): "
            + "\(format(result.actionsPerSecond / 1_000, 1)) k subscriptions/s"
    case "child-slope":
        // Canopy only: one subscriber per child, raw or deduplicating (issue 32).
        guard system == .canopy else { return nil }
        let result = try ChildSlope.run(
            options.subscriber,
            children: options.children,
            actions: size ?? ChildSlope.defaultActions
        )
        return "child-slope canopy (\(options.children) children, one \(options.subscriber.rawValue) subscriber each, "
            + "\(result.actions) actions to the root): \(describe(result))"
    case "dropped-children":
        // Canopy only: the floors have no child handles to drop.
        guard system == .canopy else { return nil }
        let result = try DroppedChildren.run(iterations: size ?? DroppedChildren.sizes[0])
        return "dropped-children canopy (\(result.iterations) iterations): "
            + "\(format(result.nanosecondsPerIteration / 1_000, 2)) µs per iteration, no dropped child alive"
    case "w1-recorded":
        // Canopy only: W1 with an ActionRecorder at the root (issue 13).
        guard system == .canopy else { return nil }
        let result = try W1Recorded.run(actions: size ?? W1DispatchThroughput.defaultActions)
        return "W1 recorded canopy (\(result.actions) actions): \(describe(result)), every action logged"
    case "w1-persisted":
        // Canopy only: W1 with a persistence writer registered and no entity touched (issue 16).
        guard system == .canopy else { return nil }
        let result = try W1Persisted.run(actions: size ?? W1DispatchThroughput.defaultActions)
        return "W1 persisted canopy (\(result.actions) actions): \(describe(result)), nothing written"
    case "persist-drain":
        // Canopy only: rounds of 1,000 changed entities, each flushed (issue 16).
        guard system == .canopy else { return nil }
        let result = try PersistDrain.run(rounds: size ?? 100)
        return "persist-drain canopy (\(result.actions) rounds of \(PersistDrain.entitiesPerRound) entities): "
            + "\(describe(result)), one complete batch per round"
    default:
        usage()
    }
}

let options = parse(Array(CommandLine.arguments.dropFirst()))
for workload in options.workloads {
    for system in options.systems {
        do {
            let summary = try run(workload, system, options)
            if let summary, !options.quiet {
                print("\(summary) — check passed")
            }
        } catch {
            print("FAILED: \(error)")
            exit(1)
        }
    }
}
