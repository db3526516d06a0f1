import Canopy
import CanopyTestSupport
import Dispatch
import Testing

@Suite(.timeLimit(.minutes(1))) struct DependenciesTests {
    struct Reader {
        @Dependency(\.greeting) var greeting
        @Dependency(\.untouched) var untouched
    }

    @Test func anEntryNobodySetReadsAsItsDefault() {
        #expect(Dependency[\.untouched] == 7)
        #expect(Dependencies[\.untouched] == 7)
        #expect(Reader().untouched == 7)
    }

    @Test func theAppsSetUpIsSeenFromOtherThreadsAndTasks() async {
        Dependency[\.setUp] = "configured"
        let fromQueue = await withCheckedContinuation { continuation in
            DispatchQueue(label: "reader").async { continuation.resume(returning: Dependency[\.setUp]) }
        }
        let fromDetachedTask = await Task.detached { Dependencies[\.setUp] }.value
        #expect(fromQueue == "configured")
        #expect(fromDetachedTask == "configured")
    }

    @Test func anOverrideHoldsInsideItsScopeOnly() {
        let inside = withDependencies {
            $0.greeting = "scoped"
        } operation: {
            (Dependency[\.greeting], Dependencies[\.greeting], Reader().greeting)
        }
        #expect(inside == ("scoped", "scoped", "scoped"))
        #expect(Dependency[\.greeting] == "default")
    }

    @Test func anInnerScopeSeesTheOuterOverridesAndItsOwn() {
        withDependencies {
            $0.greeting = "outer"
            $0.count = 1
        } operation: {
            withDependencies {
                $0.count += 10  // starts from the outer value
            } operation: {
                #expect(Dependency[\.greeting] == "outer")
                #expect(Dependency[\.count] == 11)
            }
            #expect(Dependency[\.count] == 1)
        }
        #expect(Dependency[\.count] == 0)
    }

    @Test func theAsyncFormCarriesTheScopeAcrossSuspensionsAndIntoChildTasks() async {
        await withDependencies {
            $0.greeting = "async"
        } operation: {
            await Task.yield()
            #expect(Dependency[\.greeting] == "async")
            let child = await Task { Dependency[\.greeting] }.value
            #expect(child == "async")
            // A detached task does not inherit task-local values, so it sees the app's.
            let detached = await Task.detached { Dependency[\.greeting] }.value
            #expect(detached == "default")
        }
    }

    @Test func scopesRunningAtTheSameTimeDoNotSeeEachOther() async {
        let bothInside = Rendezvous(parties: 2)
        async let first = withDependencies {
            $0.greeting = "first"
        } operation: {
            await bothInside.arrive()
            return Dependency[\.greeting]
        }
        async let second = withDependencies {
            $0.greeting = "second"
        } operation: {
            await bothInside.arrive()
            return Dependency[\.greeting]
        }
        #expect(await [first, second] == ["first", "second"])
    }

    @Test func anErrorThrownInTheUpdateLeavesNoScope() {
        struct Refused: Error {}
        #expect(throws: Refused.self) {
            try withDependencies { _ in
                throw Refused()
            } operation: {
                Issue.record("operation ran")
            }
        }
        #expect(Dependency[\.greeting] == "default")
    }

    @Test(.exitTest) func writingAppWideInsideAScopeTraps() async {
        await #expect(processExitsWith: .failure) {
            withDependencies {
                $0.greeting = "scoped"
            } operation: {
                Dependency[\.greeting] = "app-wide"
            }
        }
    }

    @Test func concurrentReadersAndWritersNeverLoseAWriteOrSeeAValueGoBack() {
        // Two writers each count their own entry up; two readers watch both. A write that copied the
        // values out, changed them and stored them back without the lock would lose the other
        // writer's updates; a torn read could see a count go back.
        let writes = 2_000
        let regressions = StateRecorder<String>()
        DispatchQueue.concurrentPerform(iterations: 4) { worker in
            switch worker {
            case 0:
                for value in 1...writes { Dependency[\.counterA] = value }
            case 1:
                for value in 1...writes { Dependencies[\.counterB] = value }
            default:
                var last = (a: 0, b: 0)
                for _ in 0..<writes {
                    let seen = (a: Dependency[\.counterA], b: Dependency[\.counterB])
                    if seen.a < last.a || seen.b < last.b { regressions.record("\(last) then \(seen)") }
                    last = seen
                }
            }
        }
        #expect(Dependency[\.counterA] == writes)
        #expect(Dependency[\.counterB] == writes)
        #expect(regressions.values.isEmpty)
    }
}
