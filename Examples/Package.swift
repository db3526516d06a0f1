// swift-tools-version: 6.2
import PackageDescription

let package = Package(
    name: "CanopyExamples",
    platforms: [.macOS(.v15)],
    products: [.executable(name: "taskboard", targets: ["TaskBoard"])],
    dependencies: [
        // `name:` because the checkout folder may not be called "Canopy".
        .package(name: "Canopy", path: ".."),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        // SQLite through the system library (libsqlite3-dev on Linux).
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
    ],
    targets: [
        .executableTarget(
            name: "TaskBoard",
            dependencies: [
                .product(name: "Canopy", package: "Canopy"),
                .product(name: "CanopyPersistence", package: "Canopy"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        .testTarget(
            name: "TaskBoardTests",
            dependencies: [
                "TaskBoard",
                .product(name: "Canopy", package: "Canopy"),
                .product(name: "CanopyTesting", package: "Canopy"),
                .product(name: "CanopyPersistence", package: "Canopy"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)

let settings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

for target in package.targets {
    target.swiftSettings = (target.swiftSettings ?? []) + settings
}
