import Testing

#if canImport(XCTest)
import XCTest
#endif

/// Where a test store call was written: the `#fileID`, `#filePath`, `#line` and `#column` of the
/// call, which its failures point at.
struct CallSite: Sendable {
    let fileID: StaticString
    let filePath: StaticString
    let line: UInt
    let column: UInt
}

/// Reports test failures to the framework that runs the test.
///
/// Under Swift Testing (a test is current: `Test.current` is set) a failure is an `Issue`, recorded at
/// the call site; otherwise it goes to XCTest (`XCTFail`), at the same file and line. Exactly one of
/// the two receives each failure, so none is counted twice when both frameworks run in one process.
enum TestFailure {
    /// Whether failures should go to Swift Testing, decided in the calling task.
    static var isSwiftTesting: Bool {
        Test.current != nil
    }

    /// Reports `message` as a failure at `site`.
    ///
    /// - Parameters:
    ///   - message: What went wrong.
    ///   - site: The call of the test store the failure points at.
    ///   - toSwiftTesting: Where to report; by default, as the calling task decides. Failures found in
    ///     `deinit`, which runs outside the test's task, use what was decided when the store was created.
    static func record(_ message: String, at site: CallSite, toSwiftTesting: Bool = isSwiftTesting) {
        #if canImport(XCTest)
        if !toSwiftTesting {
            XCTFail(message, file: site.filePath, line: site.line)
            return
        }
        #endif
        Issue.record(
            Comment(rawValue: message),
            sourceLocation: SourceLocation(
                fileID: "\(site.fileID)",
                filePath: "\(site.filePath)",
                line: Int(site.line),
                column: Int(site.column)
            )
        )
    }
}
