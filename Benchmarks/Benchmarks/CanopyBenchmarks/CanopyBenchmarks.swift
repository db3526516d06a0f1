import Benchmark
import MallocInterposerSwift
import Synchronization
import Workloads

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// Every iteration of a workload runs its three systems (floor-sync, floor-queue, Canopy) one after the
// other, rotating their order, and records custom metrics: so each ratio to floor-queue is taken side by
// side, in the same iteration. Times come from a timed pass that counts nothing; allocations from a
// second, counting pass whose times are discarded, so the malloc counter never slows a timing.
// package-benchmark reports the median (p50) of each metric over the iterations; `run.sh` turns those
// medians into the summary table.
//
// Each system checks its result; a failed check fails the benchmark run.

let benchmarks: @Sendable () -> Void = {
    if InterposerHeapCounter.isLoaded {
        AllocationCounter.install(InterposerHeapCounter())
    }
    let iterations = Int(getenv("CANOPY_BENCHMARK_ITERATIONS").map { String(cString: $0) } ?? "") ?? 7

    Benchmark(
        "W1 dispatch throughput",
        configuration: configuration(throughputMetrics(), iterations: iterations)
    ) { benchmark in
        run(benchmark) { system, pass in
            let result = try W1DispatchThroughput.run(system)
            return throughputMeasurements(system, result, pass)
        }
    }

    Benchmark(
        "W2 fan-out",
        configuration: configuration(throughputMetrics(), iterations: iterations)
    ) { benchmark in
        run(benchmark) { system, pass in
            let result = try W2FanOut.run(system)
            return throughputMeasurements(system, result, pass)
        }
    }

    Benchmark(
        "W3 tree",
        configuration: configuration(
            throughputMetrics()
                + System.allCases.flatMap { [Metric.latencyP50(of: $0), Metric.latencyP99(of: $0)] }
                + [Metric.latencyP50Ratio],
            iterations: iterations
        )
    ) { benchmark in
        run(benchmark) { system, pass in
            // The counting pass needs no latency samples.
            let samples = pass == .timed ? W3Tree.defaultLatencySamples : 0
            let result = try W3Tree.run(system, latencySamples: samples)
            var measurements = throughputMeasurements(system, result.throughput, pass)
            if pass == .timed {
                measurements += [
                    (Metric.latencyP50(of: system), Double(result.latencyP50Nanoseconds)),
                    (Metric.latencyP99(of: system), Double(result.latencyP99Nanoseconds)),
                ]
            }
            return measurements
        }
    }

    Benchmark(
        "W4 memory",
        configuration: configuration(
            System.allCases.flatMap { system in
                [
                    Metric.bytesPerSubscriber(of: system), Metric.allocationsPerSubscriber(of: system),
                    Metric.bytesPerChild(of: system), Metric.allocationsPerChild(of: system),
                ]
            } + [Metric.bytesPerDeduplicatingChild, Metric.allocationsPerDeduplicatingChild],
            iterations: iterations
        )
    ) { benchmark in
        run(benchmark, passes: [.counted]) { system, _ in
            let result = try W4Memory.run(system)
            guard let subscriber = result.bytesPerSubscriber, let child = result.bytesPerChild,
                let subscriberAllocations = result.allocationsPerSubscriber,
                let childAllocations = result.allocationsPerChild
            else {
                throw MissingInterposer()
            }
            var measurements = [
                (Metric.bytesPerSubscriber(of: system), subscriber),
                (Metric.allocationsPerSubscriber(of: system), subscriberAllocations * 1_000),
                (Metric.bytesPerChild(of: system), child),
                (Metric.allocationsPerChild(of: system), childAllocations * 1_000),
            ]
            if let bytes = result.bytesPerDeduplicatingChild,
                let allocations = result.allocationsPerDeduplicatingChild
            {
                measurements += [
                    (Metric.bytesPerDeduplicatingChild, bytes),
                    (Metric.allocationsPerDeduplicatingChild, allocations * 1_000),
                ]
            }
            return measurements
        }
    }

    Benchmark(
        "W5 two producers",
        configuration: configuration(throughputMetrics(), iterations: iterations)
    ) { benchmark in
        run(benchmark) { system, pass in
            let result = try W5TwoProducers.run(system)
            return throughputMeasurements(system, result, pass)
        }
    }

    Benchmark(
        "tree width",
        configuration: configuration(
            TreeWidth.widths.flatMap { width in
                System.allCases.map { Metric.actionsPerSecond(of: $0, children: width) }
                    + [Metric.throughputRatio(children: width)]
            },
            iterations: iterations
        )
    ) { benchmark in
        run(
            benchmark,
            passes: [.timed],
            ratios: TreeWidth.widths.map { width in
                (
                    Metric.throughputRatio(children: width), Metric.actionsPerSecond(of: .canopy, children: width),
                    Metric.actionsPerSecond(of: .floorQueue, children: width)
                )
            }
        ) { system, _ in
            try TreeWidth.widths.map { width in
                let result = try TreeWidth.run(system, children: width)
                return (Metric.actionsPerSecond(of: system, children: width), result.actionsPerSecond)
            }
        }
    }

    Benchmark(
        "subscribe",
        configuration: configuration(
            System.allCases.map { Metric.subscriptionsPerSecond(of: $0) } + [Metric.subscriptionRatio],
            iterations: iterations
        )
    ) { benchmark in
        run(
            benchmark,
            passes: [.timed],
            ratios: [
                (
                    Metric.subscriptionRatio, Metric.subscriptionsPerSecond(of: .canopy),
                    Metric.subscriptionsPerSecond(of: .floorQueue)
                )
            ]
        ) { system, _ in
            let result = try SubscribeCost.run(system)
            return [(Metric.subscriptionsPerSecond(of: system), result.actionsPerSecond)]
        }
    }

    Benchmark(
        "dropped children",
        configuration: configuration(
            DroppedChildren.sizes.map { Metric.nanosecondsPerDroppedChild(at: $0) } + [Metric.droppedChildrenGrowth],
            iterations: iterations
        )
    ) { benchmark in
        do {
            var perIteration: [Int: Double] = [:]
            for size in DroppedChildren.sizes {
                perIteration[size] = try DroppedChildren.run(iterations: size).nanosecondsPerIteration
            }
            for (size, nanoseconds) in perIteration {
                benchmark.measurement(Metric.nanosecondsPerDroppedChild(at: size), Int(nanoseconds.rounded()))
            }
            if let smallest = DroppedChildren.sizes.first, let largest = DroppedChildren.sizes.last,
                let first = perIteration[smallest], let last = perIteration[largest]
            {
                benchmark.measurement(Metric.droppedChildrenGrowth, Int((1_000 * last / first).rounded()))
            }
        } catch {
            fail(benchmark, error)
        }
    }
}

/// The names of the custom metrics; `run.sh` reads them back by these names.
enum Metric {
    static func actionsPerSecond(of system: System) -> BenchmarkMetric {
        larger("\(system.rawValue) actions per s")
    }
    /// Canopy's throughput per 1,000 of floor-queue's, from the same iteration.
    static let throughputRatio = larger("canopy per 1000 floor-queue")
    static func allocationsPerMillionActions(of system: System) -> BenchmarkMetric {
        smaller("\(system.rawValue) allocations per 1M actions")
    }
    static func latencyP50(of system: System) -> BenchmarkMetric { smaller("\(system.rawValue) latency p50 ns") }
    static func latencyP99(of system: System) -> BenchmarkMetric { smaller("\(system.rawValue) latency p99 ns") }
    /// Canopy's median latency per 1,000 of floor-queue's, from the same iteration.
    static let latencyP50Ratio = smaller("canopy latency p50 per 1000 floor-queue")
    static func bytesPerSubscriber(of system: System) -> BenchmarkMetric {
        smaller("\(system.rawValue) bytes per subscriber")
    }
    static func allocationsPerSubscriber(of system: System) -> BenchmarkMetric {
        smaller("\(system.rawValue) allocations per 1000 subscribers")
    }
    static func bytesPerChild(of system: System) -> BenchmarkMetric { smaller("\(system.rawValue) bytes per child") }
    static func allocationsPerChild(of system: System) -> BenchmarkMetric {
        smaller("\(system.rawValue) allocations per 1000 children")
    }
    /// Canopy only: a child store with one `subscribe(removeStateDuplicates:)` subscription, token kept.
    static let bytesPerDeduplicatingChild = smaller("canopy bytes per child with a deduplicating subscription")
    static let allocationsPerDeduplicatingChild = smaller(
        "canopy allocations per 1000 children with a deduplicating subscription"
    )
    static func actionsPerSecond(of system: System, children: Int) -> BenchmarkMetric {
        larger("\(system.rawValue) actions per s with \(children) children")
    }
    static func throughputRatio(children: Int) -> BenchmarkMetric {
        larger("canopy per 1000 floor-queue with \(children) children")
    }
    static func subscriptionsPerSecond(of system: System) -> BenchmarkMetric {
        larger("\(system.rawValue) subscriptions per s")
    }
    /// Canopy's subscriptions per second per 1,000 of floor-queue's, from the same iteration.
    static let subscriptionRatio = larger("canopy subscriptions per 1000 floor-queue")
    static func nanosecondsPerDroppedChild(at size: Int) -> BenchmarkMetric {
        smaller("ns per iteration at \(size)")
    }
    /// The time per iteration of the largest loop per 1,000 of the smallest's: 1,000 when linear.
    static let droppedChildrenGrowth = smaller("largest per 1000 smallest")

    private static func larger(_ name: String) -> BenchmarkMetric {
        .custom(name, polarity: .prefersLarger, useScalingFactor: false)
    }

    private static func smaller(_ name: String) -> BenchmarkMetric {
        .custom(name, polarity: .prefersSmaller, useScalingFactor: false)
    }
}

struct MissingInterposer: Error, CustomStringConvertible {
    var description: String { "the malloc interposer is not loaded, so heap bytes cannot be counted" }
}

func configuration(_ metrics: [BenchmarkMetric], iterations: Int) -> Benchmark.Configuration {
    Benchmark.Configuration(
        metrics: metrics,
        units: Dictionary(uniqueKeysWithValues: metrics.map { ($0, BenchmarkUnits.count) }),
        warmupIterations: 1,
        maxDuration: .seconds(3_600),
        maxIterations: iterations,
        teardown: exitIfAnyCheckFailed
    )
}

/// The checks that failed in this process.
let failedChecks = Mutex<[String]>([])

/// Runs once a benchmark's iterations are done, with its output no longer suppressed. package-benchmark
/// prints `Benchmark.error(_:)` but still exits with status 0, so a failed check stops the process here:
/// the run fails loudly.
func exitIfAnyCheckFailed() {
    let failures = failedChecks.withLock { $0 }
    guard !failures.isEmpty else { return }
    for failure in failures {
        print("FAILED: \(failure)")
    }
    exit(1)
}

/// Records a failed check; ``exitIfAnyCheckFailed()`` stops the run once the benchmark is done.
func fail(_ benchmark: Benchmark, _ error: any Error) {
    benchmark.error("\(error)")
    failedChecks.withLock { $0.append("\(benchmark.name): \(error)") }
}

func throughputMetrics() -> [BenchmarkMetric] {
    System.allCases.map { Metric.actionsPerSecond(of: $0) } + [Metric.throughputRatio]
        + System.allCases.map { Metric.allocationsPerMillionActions(of: $0) }
}

/// The throughput from a timed pass, the allocations from a counting pass.
func throughputMeasurements(_ system: System, _ result: Throughput, _ pass: Pass) -> [(BenchmarkMetric, Double)] {
    switch pass {
    case .timed:
        return [(Metric.actionsPerSecond(of: system), result.actionsPerSecond)]
    case .counted:
        guard let allocations = result.allocationsPerAction else { return [] }
        return [(Metric.allocationsPerMillionActions(of: system), allocations * 1_000_000)]
    }
}

/// One run of a workload's systems: timed, counting nothing; or counting allocations, its times unused.
enum Pass {
    case timed
    case counted
}

/// A ratio of Canopy to floor-queue, per 1,000, and the two metrics it divides.
typealias Ratio = (ratio: BenchmarkMetric, canopy: BenchmarkMetric, floorQueue: BenchmarkMetric)

/// Runs one iteration: every system once per pass, in an order that rotates with the iteration (the
/// timed pass of all three first, then the counting pass), then records the ratios of Canopy to
/// floor-queue measured in this iteration. A failed check fails the run.
func run(
    _ benchmark: Benchmark,
    passes: [Pass] = [.timed, .counted],
    ratios: [Ratio] = [
        (Metric.throughputRatio, Metric.actionsPerSecond(of: .canopy), Metric.actionsPerSecond(of: .floorQueue)),
        (Metric.latencyP50Ratio, Metric.latencyP50(of: .canopy), Metric.latencyP50(of: .floorQueue)),
    ],
    _ body: (System, Pass) throws -> [(BenchmarkMetric, Double)]
) {
    var values: [BenchmarkMetric: Double] = [:]
    do {
        for pass in passes {
            for system in System.order(round: benchmark.currentIteration) {
                let measurements =
                    switch pass {
                    case .timed: try body(system, pass)
                    case .counted: try AllocationCounter.countingPass { try body(system, pass) }
                    }
                for (metric, value) in measurements {
                    values[metric] = value
                }
            }
        }
    } catch {
        fail(benchmark, error)
        return
    }
    for ratio in ratios {
        if let canopy = values[ratio.canopy], let floorQueue = values[ratio.floorQueue] {
            values[ratio.ratio] = 1_000 * canopy / floorQueue
        }
    }
    for (metric, value) in values {
        benchmark.measurement(metric, Int(value.rounded()))
    }
}

/// Reads the malloc interposer that package-benchmark preloads into the benchmark process.
struct InterposerHeapCounter: HeapCounter {
    /// Whether the interposer sees this process's allocations (it must be preloaded before `main`).
    static var isLoaded: Bool {
        let before = MallocInterposerSwift.getStatistics().mallocCount
        MallocInterposerSwift.hook()
        let probe = UnsafeMutableRawPointer.allocate(byteCount: 64, alignment: 8)
        probe.deallocate()
        MallocInterposerSwift.unhook()
        return MallocInterposerSwift.getStatistics().mallocCount > before
    }

    func begin() -> HeapDelta {
        let start = reading()
        MallocInterposerSwift.hook()
        return start
    }

    func end(since start: HeapDelta) -> HeapDelta {
        MallocInterposerSwift.unhook()
        let end = reading()
        return HeapDelta(
            allocations: end.allocations - start.allocations,
            frees: end.frees - start.frees,
            retainedBytes: end.retainedBytes - start.retainedBytes
        )
    }

    private func reading() -> HeapDelta {
        let statistics = MallocInterposerSwift.getStatistics()
        return HeapDelta(
            allocations: statistics.mallocCount,
            frees: statistics.freeCount,
            retainedBytes: statistics.mallocBytesCount - statistics.freeBytesCount
        )
    }
}
