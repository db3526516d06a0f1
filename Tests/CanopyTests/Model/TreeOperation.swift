@testable import Canopy

/// One step of a random sequence. Numbers that pick a handle or a subscription are taken modulo the
/// candidates at the time the step runs, so any sub-sequence (as shrinking makes) is still valid.
enum TreeOperation: Sendable, CustomStringConvertible {
    case makeChild(parent: Int)
    case makeJobChild(parent: Int)
    case makeView(parent: Int, state: StateMap, action: ActionMap)
    case subscribeRaw(target: Int, deadAfter: Int?)
    case subscribeDedup(target: Int, equating: EquatingKind)
    /// A props subscription (the states themselves as props), deduplicated, delivered on a queue of the
    /// runner's after a hop through a presentation queue of its own.
    case subscribeProps(target: Int, equating: EquatingKind)
    case cancel(subscription: Int)
    case drop(target: Int)
    case dispatch(target: Int, action: ModelAction)
    case dispatchThroughTemporaryChild(parent: Int, action: ModelAction)
    case dispatchThroughWeakHandle(target: Int, action: ModelAction)
    case dispatchThroughWeakHandleThenDrop(target: Int, action: ModelAction)
    case advance(by: Int)

    var description: String {
        switch self {
        case .makeChild(let parent): "makeChild(parent: \(parent))"
        case .makeJobChild(let parent): "makeJobChild(parent: \(parent))"
        case .makeView(let parent, let state, let action):
            "makeView(parent: \(parent), state: .\(state), action: .\(action))"
        case .subscribeRaw(let target, let deadAfter):
            "subscribeRaw(target: \(target), deadAfter: \(deadAfter.map(String.init) ?? "nil"))"
        case .subscribeDedup(let target, let equating): "subscribeDedup(target: \(target), equating: .\(equating))"
        case .subscribeProps(let target, let equating): "subscribeProps(target: \(target), equating: .\(equating))"
        case .cancel(let subscription): "cancel(subscription: \(subscription))"
        case .drop(let target): "drop(target: \(target))"
        case .dispatch(let target, let action): "dispatch(target: \(target), action: \(action))"
        case .dispatchThroughTemporaryChild(let parent, let action):
            "dispatchThroughTemporaryChild(parent: \(parent), action: \(action))"
        case .dispatchThroughWeakHandle(let target, let action):
            "dispatchThroughWeakHandle(target: \(target), action: \(action))"
        case .dispatchThroughWeakHandleThenDrop(let target, let action):
            "dispatchThroughWeakHandleThenDrop(target: \(target), action: \(action))"
        case .advance(let interval): "advance(by: \(interval))"
        }
    }

    /// A random sequence of `count` steps.
    static func sequence(count: Int, using random: inout SplitMix64) -> [TreeOperation] {
        (0..<count).map { _ in TreeOperation.random(using: &random) }
    }

    static func random(using random: inout SplitMix64) -> TreeOperation {
        let pick = random.next(below: 100)
        let target = random.next(below: 64)
        switch pick {
        case 0..<12: return .makeChild(parent: target)
        case 12..<15: return .makeJobChild(parent: target)
        case 15..<24:
            return .makeView(
                parent: target,
                state: StateMap.allCases[random.next(below: StateMap.allCases.count)],
                action: ActionMap.allCases[random.next(below: ActionMap.allCases.count)]
            )
        case 24..<34:
            return .subscribeRaw(target: target, deadAfter: random.chance(20) ? 1 + random.next(below: 4) : nil)
        case 34..<39:
            return .subscribeDedup(
                target: target,
                equating: EquatingKind.allCases[random.next(below: EquatingKind.allCases.count)]
            )
        case 39..<42:
            return .subscribeProps(
                target: target,
                equating: EquatingKind.allCases[random.next(below: EquatingKind.allCases.count)]
            )
        case 42..<48: return .cancel(subscription: target)
        case 48..<54: return .drop(target: target)
        case 54..<59: return .advance(by: random.next(below: 4))
        case 59..<68:
            let command: JobCommand =
                switch random.next(below: 3) {
                case 0: .restart(delay: 1 + random.next(below: 3))
                case 1: .cancel
                default: .succeed
                }
            return .dispatch(target: target, action: .job(command))
        case 68..<71: return .dispatchThroughTemporaryChild(parent: target, action: .tag(random.next(below: 10)))
        case 71..<74: return .dispatchThroughWeakHandle(target: target, action: .tag(random.next(below: 10)))
        case 74..<77:
            return .dispatchThroughWeakHandleThenDrop(target: target, action: .tag(random.next(below: 10)))
        default: return .dispatch(target: target, action: .tag(random.next(below: 10)))
        }
    }
}
