import Canopy
import Dispatch
import Foundation
import Testing

// Effect call sites (SPEC 4.1–4.3) written as a Puredux 2.x program writes them, including the
// whole-state operators. The same file is compiled in Swift 5 and in Swift 6 language mode.
//
// A store's effects are cancelled when it is released, and Swift may release a local right after its
// last use, so each test holds its stores until the runs it waits for are seen.

struct JobState: Equatable {
    var job = Effect.State()
    var isOn = false
    var query = ""
    var uploads: [Effect.State] = []
}

enum JobAction {
    case start
    case finished
    case failed(Error)
    case switchOn(Bool)
    case search(String)
    case upload
    case uploaded(Effect.State)
}

@Sendable func reduceJob(state: inout JobState, action: JobAction) {
    switch action {
    case .start: state.job.run()
    case .finished: state.job.succeed()
    case .failed(let error): state.job.retryOrFailWith(error)
    case .switchOn(let isOn): state.isOn = isOn
    case .search(let query): state.query = query
    case .upload: state.uploads.append(.running())
    case .uploaded(let upload):
        if let index = state.uploads.firstIndex(of: upload) { state.uploads[index].succeed() }
    }
}

struct UploadError: Error {}

@Suite(.timeLimit(.minutes(1)))
struct EffectCallSites {
    let effects = DispatchQueue(label: "compat.effects")

    func jobStore() -> StateStore<JobState, JobAction> {
        StateStore<JobState, JobAction>(JobState(), reducer: reduceJob)
    }

    @Test func effectStateValuesBehaveAsInPuredux() {
        var state = Effect.State.idle()
        #expect(state.isIdle && state.status == .idle && state == Effect.State())
        state.run(maxAttempts: 2, delay: 0)
        #expect(state.isInProgress && state.currentAttempt == 0 && state.delay == 0)
        state.retryOrFailWith(UploadError())
        #expect(state.currentAttempt == 1)
        state.retryOrFailWith(nil)
        #expect(state.isFailed && state.error?.localizedDescription == "Unknown effect execution error")
        state.restart()
        state.cancel()
        #expect(state.isCancelled)
        state.succeed()
        #expect(state.isCancelled)
        state.reset()
        #expect(Effect.State.running(maxAttempts: 3).isInProgress && state.isIdle)
        var finished = Effect.State.running()
        finished.succeed()
        #expect(finished.isSuccess && finished.status == .success)
    }

    @Test func effectStatesAreCodableAndHashable() throws {
        let running = Effect.State.running(maxAttempts: 2, delay: 1)
        let decoded = try JSONDecoder().decode(Effect.State.self, from: JSONEncoder().encode(running))
        #expect(decoded == running)
        #expect(Set([running, decoded, Effect.State.idle()]).count == 2)
        #expect(Effect.State.Status(rawValue: running.status.rawValue) == .inProgress)
    }

    @Test func aKeyPathEffectRunsOncePerAttemptAndReportsBack() async {
        let store = jobStore()
        let runs = Recorder<Int>()
        store.effect(\.job, on: effects) { state, dispatch in
            Effect {
                runs.record(state.job.currentAttempt ?? -1)
                dispatch(.finished)
            }
        }
        let jobs = Recorder<Effect.State.Status>()
        store.subscribe(
            observer: Observer { state in
                jobs.record(state.job.status)
                return .active
            }
        )
        store.dispatch(.start)
        #expect(await jobs.waitFor(count: 3) == [.idle, .inProgress, .success])
        #expect(runs.all == [0])
        withExtendedLifetime(store) {}
    }

    @Test func keyPathTriggersFireAsInPuredux() async {
        let store = jobStore()
        let toggled = Recorder<Bool>()
        store.effect(toggle: \.isOn, on: effects) { state, _ in
            Effect { toggled.record(state.isOn) }
        }
        let changed = Recorder<String>()
        store.effect(onChange: \.query, on: effects) { state, _ in
            Effect(operation: { changed.record(state.query) })
        }
        let uploaded = Recorder<Bool>()
        store.effect(collection: \.uploads, on: effects) { _, upload, dispatch in
            Effect {
                uploaded.record(upload.isInProgress)
                dispatch(.uploaded(upload))
            }
        }
        store.dispatch(.switchOn(true))
        store.dispatch(.search("canopy"))
        store.dispatch(.upload)
        #expect(await toggled.waitFor(count: 1) == [true])
        #expect(await changed.waitFor(count: 1) == ["canopy"])
        #expect(await uploaded.waitFor(count: 1) == [true])
        withExtendedLifetime(store) {}
    }

    @Test func wholeStateOperatorsFireAsInPuredux() async {
        let flag = StateStore<Bool, Bool>(false) { state, action in state = action }
        let toggled = Recorder<Bool>()
        let onToggle: StateStore<Bool, Bool>.CreateEffect = { isOn, _ in
            Effect { toggled.record(isOn) }
        }
        flag.effectToggle(on: effects, create: onToggle)

        let query = StateStore<String, String>("") { state, action in state = action }
        let searched = Recorder<String>()
        query.effectOnChange(on: effects) { text, dispatch in
            Effect { searched.record(text) }
        }

        let uploads = StateStore<[Effect.State], Effect.State>([]) { state, action in state.append(action) }
        let sent = Recorder<Int>()
        let send: AnyStore<[Effect.State], Effect.State>.CreateEffectForState = { state, upload, _ in
            Effect { sent.record(state.count) }
        }
        uploads.eraseToAnyStore().effectCollection(on: effects, forEach: send)

        let job = StateStore<Effect.State, Bool>(.running()) { state, done in if done { state.succeed() } }
        let jobRuns = Recorder<Bool>()
        job.effect { state, dispatch in
            Effect {
                jobRuns.record(state.isInProgress)
                dispatch(true)
            }
        }

        flag.dispatch(true)
        query.dispatch("a")
        uploads.dispatch(.running())
        #expect(await toggled.waitFor(count: 1) == [true])
        #expect(await searched.waitFor(count: 1) == ["a"])
        #expect(await sent.waitFor(count: 1) == [1])
        #expect(await jobRuns.waitFor(count: 1) == [true])
        withExtendedLifetime((flag, query, uploads, job)) {}
    }

    @Test func postponeAsksAgainOnALaterState() async {
        let store = jobStore()
        let asked = Recorder<Bool>()
        let ran = Recorder<Bool>()
        store.effect(\.job, on: effects) { state, _ in
            asked.record(state.isOn)
            guard state.isOn else { return .postpone }
            return Effect { ran.record(true) }
        }
        store.dispatch(.start)
        #expect(await asked.waitFor(count: 1) == [false])
        store.dispatch(.switchOn(true))
        #expect(await ran.waitFor(count: 1) == [true])
        withExtendedLifetime(store) {}
    }
}
