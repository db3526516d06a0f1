// swift-tools-version: 6.2
import PackageDescription

let package = Package(
    name: "CanopyExamples",
    platforms: [.macOS(.v15)],
    products: [.executable(name: "taskboard", targets: ["TaskBoard"])],
    dependencies: [
        // `name:` because the checkout folder may not be called "Canopy".
        .package(name: "Canopy", path: "..")
    ],
    targets: [
        .executableTarget(name: "TaskBoard", dependencies: [.product(name: "Canopy", package: "Canopy")])
    ],
    swiftLanguageModes: [.v6]
)
