/// What receives the changes of an entity store: a writer's slot.
protocol EntitySink<Entity>: AnyObject, Sendable {
    associatedtype Entity: Identifiable & Sendable where Entity.ID: Sendable

    /// On the queue, right after the store's reducer: adds `changes`, just taken from `store`.
    func receive(_ changes: ChangeSet<Entity.ID>, from store: EntityStore<Entity>)
}

/// The after-reduce step of one entity store of one node: it takes the changes once and hands them to
/// every writer that watches that store.
// Safety: Sendable by hand: its one `var` is confined to the tree's queue (note below).
final class EntityDrain<Entity: Identifiable & Sendable>: @unchecked Sendable where Entity.ID: Sendable {
    // Safety: `sinks` is read and written only on the tree's queue: by the after-reduce step, which runs
    // in the store's reducer, and by `persist`'s registration, which runs there.
    private var sinks: [any EntitySink<Entity>] = []

    /// On the queue: adds a writer's slot.
    func add(_ sink: any EntitySink<Entity>) {
        sinks.append(sink)
    }

    /// On the queue, right after the store's reducer, when the store recorded changes.
    func drain(_ store: inout EntityStore<Entity>) {
        let changes = store.takeChanges()
        for sink in sinks {
            sink.receive(changes, from: store)
        }
    }
}
