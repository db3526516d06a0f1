import CanopyTestSupport
import Testing

/// The setting that decides whether the exit tests run in a sanitizer build (`.exitTest`): they run
/// unless `SWIFT_BACKTRACE` turns Swift's crash backtracer on in their children.
@Suite struct ExitTestConditionTests {
    @Test(arguments: [
        ("enable=no", false),
        ("interactive=no,enable=off", false),
        ("enable = false", false),
        ("ENABLE=0", false),
        ("enable=yes,interactive=no", true),
        ("enable=tty", true),
        ("interactive=no", true),
        ("", true),
    ])
    func aSetSettingRunsTheBacktracerUnlessItsEnableKeySaysNo(setting: String, runs: Bool) {
        #expect(exitTestChildrenRunTheBacktracer(setting: setting) == runs)
    }

    @Test func withNothingSetSwiftTestingTurnsTheBacktracerOffInTheChild() {
        #expect(!exitTestChildrenRunTheBacktracer(setting: nil))
    }
}
