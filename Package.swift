// swift-tools-version: 6.2
import PackageDescription

let package = Package(
    name: "Canopy",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],  // Mutex, Atomic
    products: [
        .library(name: "Canopy", targets: ["Canopy"]),
        // For test targets only: it links Testing and XCTest (toolchain modules) to report failures.
        .library(name: "CanopyTesting", targets: ["CanopyTesting"]),
        .library(name: "CanopyPersistence", targets: ["CanopyPersistence"]),
    ],
    targets: [
        .target(name: "Canopy"),
        .target(name: "CanopyTesting", dependencies: ["Canopy"]),
        .target(name: "CanopyPersistence", dependencies: ["Canopy"]),
        // What more than one test target needs: the bounded waits.
        .target(name: "CanopyTestSupport", dependencies: ["Canopy"], path: "Tests/CanopyTestSupport"),
        .testTarget(name: "CanopyTests", dependencies: ["Canopy", "CanopyTestSupport"]),
        .testTarget(name: "CanopyTestingTests", dependencies: ["Canopy", "CanopyTesting", "CanopyTestSupport"]),
        .testTarget(
            name: "CanopyPersistenceTests",
            dependencies: ["Canopy", "CanopyPersistence", "CanopyTesting", "CanopyTestSupport"]
        ),
        // Puredux-style call sites, compiled as a Puredux user's project is: once in Swift 5 language mode,
        // once in Swift 6. The Swift 5 target's files are symbolic links to the Swift 6 target's.
        .testTarget(
            name: "PureduxCompatibilitySwift5Tests",
            dependencies: ["Canopy"],
            swiftSettings: [.swiftLanguageMode(.v5)]
        ),
        .testTarget(name: "PureduxCompatibilitySwift6Tests", dependencies: ["Canopy"]),
        // Puredux-style dependency call sites, compiled in Swift 5 mode as Puredux users' code is.
        .testTarget(
            name: "DependenciesSwift5Tests",
            dependencies: ["Canopy"],
            swiftSettings: [.swiftLanguageMode(.v5)]
        ),
    ],
    swiftLanguageModes: [.v6]
)

let settings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
    .treatWarning("ExplicitSendable", as: .warning),  // public types say whether they're Sendable
]

// The compatibility targets keep the compiler's defaults, as the projects they stand for do.
for target in package.targets where !target.name.hasPrefix("PureduxCompatibility") {
    target.swiftSettings = (target.swiftSettings ?? []) + settings
}
