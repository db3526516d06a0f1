import Foundation  // JSONSerialization, to mutate documents as dictionaries
import Testing

@testable import Canopy

/// Feeds `Effect.State`'s decoder random and mutated JSON: each input must give a `DecodingError` or a
/// state that keeps every invariant (an attempt below its maximum, a finite non-negative delay, a
/// known status, an error when failed), and that survives another round trip and the transitions.
///
/// Seeded: a failure names the seed and the input; `CANOPY_SEED` replays one seed.
@Suite(.timeLimit(.minutes(1))) struct EffectStateDecodingFuzzTests {
    private struct Boom: Error {}

    /// A valid state reached through random public transitions.
    static func randomState(using random: inout SplitMix64) -> Effect.State {
        var state = Effect.State()
        for _ in 0..<random.next(below: 6) {
            switch random.next(below: 8) {
            case 0: state.run(maxAttempts: random.next(below: 5) - 1, delay: Double(random.next(below: 4)))
            case 1:
                state.restart(
                    maxAttempts: 1 + random.next(below: 6),
                    delay: Double(random.next(below: 100)) / 10,
                    retryPolicy: Effect.RetryPolicy(
                        baseDelay: Double(random.next(below: 10)),
                        multiplier: Double(random.next(below: 4)),
                        maxDelay: random.chance(50) ? nil : Double(random.next(below: 60)),
                        jitter: Double(random.next(below: 11)) / 10
                    )
                )
            case 2: state.retryOrFailWith(random.chance(50) ? nil : Boom())
            case 3: state.succeed()
            case 4: state.cancel()
            case 5: state.fail(Boom())
            case 6: state.reset()
            default: state.retryOrFailWith(nil)
            }
        }
        return state
    }

    /// A value of a random JSON type, many of them wrong for any field.
    static func randomValue(using random: inout SplitMix64) -> Any {
        let numbers: [Any] = [0, 1, -1, 2, 5, 7, Int.max, Int.min, -0.5, 2.5, 1e300, -1e300, 4_294_967_296]
        switch random.next(below: 7) {
        case 0: return numbers[random.next(below: numbers.count)]
        case 1: return random.next(below: 12) - 3
        case 2:
            return ["", "x", "inProgress", "1", UUID().uuidString, "00000000-0000-0000-0000-00000000000G"][
                random.next(below: 6)
            ]
        case 3: return random.chance(50)
        case 4: return NSNull()
        case 5: return [random.next(below: 3)]
        default: return ["baseDelay": random.next(below: 3) - 1, "multiplier": 2, "jitter": 0]
        }
    }

    /// `object` with one to three random changes: a key removed, replaced, added or pushed out of range.
    static func mutate(_ object: [String: Any], using random: inout SplitMix64) -> [String: Any] {
        var object = object
        let keys = ["status", "runID", "attempt", "maxAttempts", "delay", "retryPolicy", "error", "extra"]
        for _ in 0..<(1 + random.next(below: 3)) {
            let key = keys[random.next(below: keys.count)]
            switch random.next(below: 6) {
            case 0: object[key] = nil
            case 1: object["status"] = random.next(below: 9) - 2
            case 2:
                let maximum = object["maxAttempts"] as? Int ?? 1
                object["attempt"] = maximum + random.next(below: 3) - 1
            case 3:
                if var policy = object["retryPolicy"] as? [String: Any] {
                    let policyKeys = ["baseDelay", "multiplier", "maxDelay", "jitter"]
                    policy[policyKeys[random.next(below: policyKeys.count)]] = randomValue(using: &random)
                    object["retryPolicy"] = policy
                }
            default: object[key] = randomValue(using: &random)
            }
        }
        return object
    }

    /// What mutations insert: JSON syntax and the letters of its literals.
    static let alphabet = "{}[]\":,-.0123456789eEtrufalsn \\"

    /// What is wrong with a decoded state, or `nil`.
    static func violation(of state: Effect.State) throws -> String? {
        let encoded = try JSONEncoder().encode(state)
        let fields = try JSONSerialization.jsonObject(with: encoded) as? [String: Any] ?? [:]
        switch state.status {
        case .inProgress:
            guard let attempt = state.currentAttempt, let delay = state.delay,
                let maximum = fields["maxAttempts"] as? Int
            else { return "in progress without an attempt, a delay or a maximum" }
            if maximum < 1 { return "maxAttempts \(maximum) < 1" }
            if attempt < 0 || attempt >= maximum { return "attempt \(attempt) outside 0..<\(maximum)" }
            if !delay.isFinite || delay < 0 { return "delay \(delay)" }
            if state.error != nil { return "an error while in progress" }
        case .failure:
            if state.error == nil { return "failed without an error" }
            if state.currentAttempt != nil || state.delay != nil { return "an attempt while failed" }
        case .idle, .success, .cancelled:
            if state.currentAttempt != nil || state.delay != nil || state.error != nil {
                return "\(state.status) with attempt, delay or error"
            }
        }
        let again = try JSONDecoder().decode(Effect.State.self, from: encoded)
        if again != state { return "a second round trip changed it" }
        // The transitions must keep working on a decoded state.
        var next = state
        for _ in 0..<3 {
            next.retryOrFailWith(nil)
            if let delay = next.delay, !delay.isFinite || delay < 0 { return "a retry computed delay \(delay)" }
        }
        next.restart()
        next.succeed()
        return next.isSuccess ? nil : "restart then succeed did not succeed"
    }

    /// Decodes `data`: a `DecodingError` or a state without violations passes.
    static func check(_ data: Data) -> String? {
        let state: Effect.State
        do {
            state = try JSONDecoder().decode(Effect.State.self, from: data)
        } catch is DecodingError {
            return nil
        } catch {
            return "threw \(type(of: error)), not a DecodingError: \(error)"
        }
        do {
            return try violation(of: state).map { "decoded to \(state), which is wrong: \($0)" }
        } catch {
            return "re-encoding threw \(error)"
        }
    }

    @Test func mutatedAndRandomInputsGiveADecodingErrorOrAValidState() throws {
        var failures: [String] = []
        for seed in ModelBasedTreeTests.seeds(defaultCount: 3000) {
            var random = SplitMix64(seed: seed)
            let valid = try JSONEncoder().encode(Self.randomState(using: &random))
            let input: Data
            switch random.next(below: 3) {
            case 0:
                let object = try JSONSerialization.jsonObject(with: valid) as? [String: Any] ?? [:]
                input = try JSONSerialization.data(withJSONObject: Self.mutate(object, using: &random))
            case 1:
                input = corrupt(valid, alphabet: Self.alphabet, using: &random)
            default:
                let object = (0..<random.next(below: 5)).reduce(into: [String: Any]()) { object, index in
                    object[["status", "runID", "attempt", "maxAttempts", "delay"][index]] = Self.randomValue(
                        using: &random
                    )
                }
                input = try JSONSerialization.data(withJSONObject: object)
            }
            if let failure = Self.check(input) {
                failures.append("seed \(seed): \(String(decoding: input, as: UTF8.self)) \(failure)")
                if failures.count >= 5 { break }
            }
        }
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
    }

    @Test func everyValidStateRoundTrips() throws {
        var random = SplitMix64(seed: 7)
        for _ in 0..<500 {
            let state = Self.randomState(using: &random)
            let decoded = try JSONDecoder().decode(Effect.State.self, from: JSONEncoder().encode(state))
            #expect(decoded.status == state.status)
            #expect(decoded.currentAttempt == state.currentAttempt)
            #expect(decoded.delay == state.delay)
            #expect(try Self.violation(of: decoded) == nil)
        }
    }

    @Test func anAttemptAtItsMaximumIsRejected() throws {
        let json = Data(
            #"{"status":1,"runID":"E621E1F8-C36C-495A-93FC-0C247A3E6E5F","attempt":3,"maxAttempts":3,"delay":0}"#.utf8
        )
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(Effect.State.self, from: json) }
    }
}
