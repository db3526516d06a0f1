import CanopyTestSupport
import Testing

@testable import Canopy

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

@Suite(.timeLimit(.minutes(1))) struct DebouncePolicyTests {
    @Test func uiDebounceIsSevenMilliseconds() {
        #expect(TimeInterval.uiDebounce == 0.007)
    }

    @Test func zeroIntervalsMeanImmediate() {
        #expect(DebouncePolicy.debounce(for: 0) == .immediate)
        #expect(DebouncePolicy.throttle(for: 0) == .immediate)
        #expect(DebouncePolicy.debounce(for: 1, maxWait: 0) == .immediate)
        #expect(DebouncePolicy.debounce(for: 1) != .immediate)
    }

    @Test func debounceWithoutMaxWaitWaitsAtMostATenthOfASecondOrFourIntervals() {
        #expect(DebouncePolicy.defaultMaxWait(for: .uiDebounce) == 0.1)
        #expect(DebouncePolicy.defaultMaxWait(for: 0.3) == 1.2)
        #expect(DebouncePolicy.default == .debounce(for: .uiDebounce, maxWait: 0.1))
        #expect(DebouncePolicy.debounce(for: 0.25) == .debounce(for: 0.25, maxWait: 1))
        #expect(DebouncePolicy.checked(interval: .uiDebounce, call: "test") == .default)
    }

    @Test func trailingHasNoMaxWait() {
        #expect(DebouncePolicy.trailing(for: 0) == .immediate)
        #expect(DebouncePolicy.trailing(for: 0.25) != .debounce(for: 0.25))
        #expect(DebouncePolicy.trailing(for: 0.25).mode == .trailing(interval: 0.25, maxWait: nil))
    }

    @Test(.exitTest) func negativeDebounceTraps() async {
        await #expect(processExitsWith: .failure) {
            _ = DebouncePolicy.debounce(for: -1)
        }
    }

    @Test(.exitTest) func nanMaxWaitTraps() async {
        await #expect(processExitsWith: .failure) {
            _ = DebouncePolicy.debounce(for: 1, maxWait: .nan)
        }
    }

    @Test(.exitTest) func negativeThrottleTraps() async {
        await #expect(processExitsWith: .failure) {
            _ = DebouncePolicy.throttle(for: -0.5)
        }
    }

    @Test(.exitTest) func negativeDebounceForInSubscribeTraps() async {
        await #expect(processExitsWith: .failure) {
            final class Screen: UIStateObserver {}
            let store = StateStore<Int, Int>(0) { state, action in state += action }
            Screen().subscribe(store: store, props: { state, _ in state }, debounceFor: -1, observe: { _ in })
        }
    }

    @Test(.exitTest) func nanDebounceForInSetPresenterTraps() async {
        await #expect(processExitsWith: .failure) {
            await MainActor.run {
                final class Screen: Presentable {
                    let slot = LockedValue<(any PresenterProtocol)?>(nil)
                    var presenter: (any PresenterProtocol)? {
                        get { slot.withLock { $0 } }
                        set { slot.withLock { $0 = newValue } }
                    }
                    func setProps(_ props: Int) {}
                }
                let store = StateStore<Int, Int>(0) { state, action in state += action }
                Screen().setPresenter(store: store, props: { state, _ in state }, debounceFor: .nan)
            }
        }
    }
}
