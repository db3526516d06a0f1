// swift-tools-version: 6.2
import PackageDescription

let package = Package(
    name: "Canopy",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],  // Mutex, Atomic
    products: [.library(name: "Canopy", targets: ["Canopy"])],
    targets: [
        .target(name: "Canopy"),
        .testTarget(name: "CanopyTests", dependencies: ["Canopy"]),
    ],
    swiftLanguageModes: [.v6]
)

let settings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
    .treatWarning("ExplicitSendable", as: .warning),  // public types say whether they're Sendable
]

for target in package.targets {
    target.swiftSettings = (target.swiftSettings ?? []) + settings
}
