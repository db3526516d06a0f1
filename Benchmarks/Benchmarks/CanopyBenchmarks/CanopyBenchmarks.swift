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
// side, in the same iteration. package-benchmark reports the median (p50) of each metric over the
// iterations; `run.sh` turns those medians into the summary table.
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
        run(benchmark) { system in
            let result = try W1DispatchThroughput.run(system)
            return throughputMeasurements(system, result)
        }
    }

    Benchmark(
        "W2 fan-out",
        configuration: configuration(throughputMetrics(), iterations: iterations)
    ) { benchmark in
        run(benchmark) { system in
            let result = try W2FanOut.run(system)
            return throughputMeasurements(system, result)
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
        run(benchmark) { system in
            let result = try W3Tree.run(system)
            return throughputMeasurements(system, result.throughput) + [
                (Metric.latencyP50(of: system), Double(result.latencyP50Nanoseconds)),
                (Metric.latencyP99(of: system), Double(result.latencyP99Nanoseconds)),
            ]
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
            },
            iterations: iterations
        )
    ) { benchmark in
        run(benchmark) { system in
            let result = try W4Memory.run(system)
            guard let subscriber = result.bytesPerSubscriber, let child = result.bytesPerChild,
                let subscriberAllocations = result.allocationsPerSubscriber,
                let childAllocations = result.allocationsPerChild
            else {
                throw MissingInterposer()
            }
            return [
                (Metric.bytesPerSubscriber(of: system), subscriber),
                (Metric.allocationsPerSubscriber(of: system), subscriberAllocations * 1_000),
                (Metric.bytesPerChild(of: system), child),
                (Metric.allocationsPerChild(of: system), childAllocations * 1_000),
            ]
        }
    }

    Benchmark(
        "W5 two producers",
        configuration: configuration(throughputMetrics(), iterations: iterations)
    ) { benchmark in
        run(benchmark) { system in
            let result = try W5TwoProducers.run(system)
            return throughputMeasurements(system, result)
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

func throughputMetrics() -> [BenchmarkMetric] {
    System.allCases.map { Metric.actionsPerSecond(of: $0) } + [Metric.throughputRatio]
        + System.allCases.map { Metric.allocationsPerMillionActions(of: $0) }
}

func throughputMeasurements(_ system: System, _ result: Throughput) -> [(BenchmarkMetric, Double)] {
    var measurements = [(Metric.actionsPerSecond(of: system), result.actionsPerSecond)]
    if let allocations = result.allocationsPerAction {
        measurements.append((Metric.allocationsPerMillionActions(of: system), allocations * 1_000_000))
    }
    return measurements
}

/// Runs one iteration: every system once, in an order that rotates with the iteration, then records
/// the ratios of Canopy to floor-queue measured in this iteration. A failed check fails the run.
func run(_ benchmark: Benchmark, _ body: (System) throws -> [(BenchmarkMetric, Double)]) {
    var values: [BenchmarkMetric: Double] = [:]
    do {
        for system in System.order(round: benchmark.currentIteration) {
            for (metric, value) in try body(system) {
                values[metric] = value
            }
        }
    } catch {
        benchmark.error("\(error)")
        failedChecks.withLock { $0.append("\(benchmark.name): \(error)") }
        return
    }
    if let canopy = values[Metric.actionsPerSecond(of: .canopy)],
        let floorQueue = values[Metric.actionsPerSecond(of: .floorQueue)]
    {
        values[Metric.throughputRatio] = 1_000 * canopy / floorQueue
    }
    if let canopy = values[Metric.latencyP50(of: .canopy)], let floorQueue = values[Metric.latencyP50(of: .floorQueue)]
    {
        values[Metric.latencyP50Ratio] = 1_000 * canopy / floorQueue
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
