import Foundation

/// The built `taskboard` executable, next to the test bundle.
enum TaskBoardBinary {
    static func url() throws -> URL {
        var candidates = [URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()]
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
            candidates.append(bundle.bundleURL.deletingLastPathComponent())
        }
        for folder in candidates {
            let binary = folder.appendingPathComponent("taskboard")
            if FileManager.default.isExecutableFile(atPath: binary.path) { return binary }
        }
        throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: "taskboard next to \(candidates)"])
    }
}
