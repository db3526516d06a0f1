import Workloads

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// Runs one workload once, at a given size, and checks its result.
//
//     canopy-workload <w1|w2|w3|w4|w5|all> [--system floor-sync|floor-queue|canopy|all] [--size N] [--quiet]
//
// `smoke.sh` runs every workload at a small size; `run.sh` runs W1 under callgrind at two sizes to count
// instructions per action. A failed check prints the reason and exits with status 1.

struct Options {
    var workloads: [String] = []
    var systems: [System] = System.allCases
    var size: Int?
    var quiet = false
}

func usage() -> Never {
    print(
        """
        usage: canopy-workload <w1|w2|w3|w4|w5|all> [--system floor-sync|floor-queue|canopy|all] [--size N] [--quiet]
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
        case "--quiet":
            options.quiet = true
        case "all":
            options.workloads = ["w1", "w2", "w3", "w4", "w5"]
        case "w1", "w2", "w3", "w4", "w5":
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

func run(_ workload: String, _ system: System, size: Int?) throws(CheckFailure) -> String {
    switch workload {
    case "w1":
        let result = try W1DispatchThroughput.run(system, actions: size ?? W1DispatchThroughput.defaultActions)
        return "W1 \(system.rawValue) (\(result.actions) actions): \(describe(result))"
    case "w2":
        let result = try W2FanOut.run(system, actions: size ?? W2FanOut.defaultActions)
        return "W2 \(system.rawValue) (\(result.actions) actions): \(describe(result))"
    case "w3":
        let actions = size ?? W3Tree.defaultActions
        let samples = min(W3Tree.defaultLatencySamples, max(actions / 10, 1))
        let result = try W3Tree.run(system, actions: actions, latencySamples: samples)
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
    default:
        usage()
    }
}

let options = parse(Array(CommandLine.arguments.dropFirst()))
for workload in options.workloads {
    for system in options.systems {
        do {
            let summary = try run(workload, system, size: options.size)
            if !options.quiet {
                print("\(summary) — check passed")
            }
        } catch {
            print("FAILED: \(error)")
            exit(1)
        }
    }
}
