import Canopy

// Entries for the dependency tests. The app-wide values are process-wide and tests run in parallel,
// so each test that writes app-wide values has entries of its own; the others only override in scopes.

struct GreetingKey: DependencyKey {
    static let defaultValue = "default"
}

struct CountKey: DependencyKey {
    static let defaultValue = 0
}

/// Read by one test only, never written: its default must show.
struct UntouchedKey: DependencyKey {
    static let defaultValue = 7
}

/// Written app-wide by one test only.
struct SetUpKey: DependencyKey {
    static let defaultValue = "not set up"
}

/// One key per `Slot` type, for the concurrency test.
struct CounterKey<Slot>: DependencyKey {
    static var defaultValue: Int { 0 }
}

enum SlotA {}
enum SlotB {}

extension Dependencies {
    var greeting: String {
        get { self[GreetingKey.self] }
        set { self[GreetingKey.self] = newValue }
    }

    var count: Int {
        get { self[CountKey.self] }
        set { self[CountKey.self] = newValue }
    }

    var untouched: Int {
        get { self[UntouchedKey.self] }
        set { self[UntouchedKey.self] = newValue }
    }

    var setUp: String {
        get { self[SetUpKey.self] }
        set { self[SetUpKey.self] = newValue }
    }

    var counterA: Int {
        get { self[CounterKey<SlotA>.self] }
        set { self[CounterKey<SlotA>.self] = newValue }
    }

    var counterB: Int {
        get { self[CounterKey<SlotB>.self] }
        set { self[CounterKey<SlotB>.self] = newValue }
    }
}

typealias CounterStore = StateStore<Int, Int>

/// A store made once, on first use, as an app's root would be.
struct CounterStoreKey: DependencyKey {
    static let defaultValue = CounterStore(0) { state, action in state += action }
}

/// Written app-wide by one test only.
struct SetUpStoreKey: DependencyKey {
    static let defaultValue = CounterStore(-1) { state, action in state += action }
}

extension SharedStores {
    var counter: CounterStore {
        get { self[CounterStoreKey.self] }
        set { self[CounterStoreKey.self] = newValue }
    }

    var setUpCounter: CounterStore {
        get { self[SetUpStoreKey.self] }
        set { self[SetUpStoreKey.self] = newValue }
    }
}
