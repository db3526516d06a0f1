// swift-tools-version: 6.2
import PackageDescription

// The benchmarks are a package of their own, so the library keeps no dependencies.
let package = Package(
    name: "CanopyBenchmarks",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "canopy-workload", targets: ["CanopyWorkload"])
    ],
    dependencies: [
        // `name:` because the checkout folder may be called something else.
        .package(name: "Canopy", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", exact: "1.38.1", traits: ["MallocInterposer"]),
        // The allocation counter that package-benchmark preloads; the suite reads it around each system.
        .package(url: "https://github.com/ordo-one/malloc-interposer.git", from: "1.5.0"),
    ],
    targets: [
        // W1–W5 and the two floors, each checking its result.
        .target(
            name: "Workloads",
            dependencies: [
                .product(name: "Canopy", package: "Canopy"),
                .product(name: "CanopyPersistence", package: "Canopy"),
            ]
        ),
        // Runs one workload once at a given size: the smoke test and the callgrind subject.
        .executableTarget(
            name: "CanopyWorkload",
            dependencies: ["Workloads"]
        ),
        // The package-benchmark suite: every workload's three systems side by side in each iteration.
        .executableTarget(
            name: "CanopyBenchmarks",
            dependencies: [
                "Workloads",
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "MallocInterposerSwift", package: "malloc-interposer"),
            ],
            path: "Benchmarks/CanopyBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
