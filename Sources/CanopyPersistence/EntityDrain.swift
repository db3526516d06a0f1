import Canopy
import Dispatch

/// What receives the changes of an entity store: a writer's slot.
protocol EntitySink<Entity>: AnyObject, Sendable {
    associatedtype Entity: Identifiable & Sendable where Entity.ID: Sendable

    /// On the queue, right after the store's reducer: adds `changes`, just taken from `store`.
    func receive(_ changes: ChangeSet<Entity.ID>, from store: EntityStore<Entity>)
}

/// The after-reduce step of one entity store of one node: it takes the changes once and hands them to
/// every writer that watches that store.
final class EntityDrain<Entity: Identifiable & Sendable>: Sendable where Entity.ID: Sendable {
    /// The writers' slots, confined to the tree's queue: the after-reduce step runs in the store's
    /// reducer, and `persist`'s registration runs there.
    private let sinks: QueueConfined<[any EntitySink<Entity>]>

    /// A drain with no writer yet, for the tree whose serial queue is `queue`.
    init(queue: DispatchQueue) {
        sinks = QueueConfined([], queue: queue)
    }

    /// On the queue: adds a writer's slot.
    func add(_ sink: any EntitySink<Entity>) {
        sinks.value.append(sink)
    }

    /// On the queue, right after the store's reducer, when the store recorded changes.
    func drain(_ store: inout EntityStore<Entity>) {
        let changes = store.takeChanges()
        for sink in sinks.value {
            sink.receive(changes, from: store)
        }
    }
}
