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

/// A `taskboard` process started with pipes for its standard streams and `NO_COLOR` set.
struct TaskBoardProcess {
    let process: Process
    let output: Pipe
    let errors: Pipe
    let input: Pipe

    /// Starts the built binary with `arguments`.
    static func start(_ arguments: [String]) throws -> TaskBoardProcess {
        let process = Process()
        process.executableURL = try TaskBoardBinary.url()
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = "1"
        process.environment = environment
        let started = TaskBoardProcess(process: process, output: Pipe(), errors: Pipe(), input: Pipe())
        process.standardOutput = started.output
        process.standardError = started.errors
        process.standardInput = started.input
        try process.run()
        return started
    }
}
