package import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

// An exit test (`processExitsWith:`) ends its child process with a trap. Swift Testing turns Swift's
// crash backtracer off in the child unless `SWIFT_BACKTRACE` is set; when it is set and leaves the
// backtracer on, the child starts `swift-backtrace` as it crashes. In a build with the thread or address
// sanitizer that process does not exit once the child is gone (Swift 6.3.1 on Linux: it waits for the
// child's memory on a socket it holds both ends of), and it keeps the write ends of the exit test's
// output pipes open. Swift Testing reads those pipes to the end on its task pool, which on Linux has one
// thread per core: two such reads on a two-core machine stop every async test in the process for good.

extension Trait where Self == ConditionTrait {
    /// For a test that runs an exit test: skips it, saying why, where its child would leave a process
    /// behind that hangs the whole run (a sanitizer build on Linux whose `SWIFT_BACKTRACE` turns Swift's
    /// crash backtracer on).
    package static var exitTest: Self {
        .enabled(
            if: exitTestsCanEnd,
            "Hangs a sanitizer build's run while SWIFT_BACKTRACE turns the backtracer on: unset it or add enable=no"
        )
    }
}

/// Whether an exit test's child ends without leaving a process behind that holds its pipes: `false` in a
/// sanitizer build on Linux whose `SWIFT_BACKTRACE` turns the crash backtracer on.
package let exitTestsCanEnd: Bool = {
    #if os(Linux)
    // The sanitizers' runtimes are linked into the test binary and export their entry points.
    let sanitized = ["__tsan_init", "__asan_init"].contains { (name: String) in dlsym(nil, name) != nil }
    let setting = ProcessInfo.processInfo.environment["SWIFT_BACKTRACE"]
    return !sanitized || !exitTestChildrenRunTheBacktracer(setting: setting)
    #else
    return true
    #endif
}()

/// Whether an exit test's child runs Swift's crash backtracer when the test process's `SWIFT_BACKTRACE`
/// is `setting` (`nil` when it is not set, and Swift Testing turns the backtracer off in the child): yes
/// unless its `enable` key says no. `tty` counts as yes, since the child may write to a terminal.
package func exitTestChildrenRunTheBacktracer(setting: String?) -> Bool {
    guard let setting else { return false }
    for entry in setting.split(separator: ",") {
        let pair = entry.split(separator: "=", maxSplits: 1).map { $0.filter { !$0.isWhitespace }.lowercased() }
        guard pair.count == 2, pair[0] == "enable" else { continue }
        return !["no", "false", "off", "0"].contains(pair[1])
    }
    return true
}
