package import Dispatch

// What the package's other modules (`CanopyPersistence`) reach of the tree behind a store.
extension StateStore {
    /// Where the value at `keyPath` lies in the state this store's own reducer mutates, in bytes; `nil`
    /// when it does not lie there: the store is a view (`map(state:)`), the path leads into an ancestor's
    /// part of a child's state, or it goes through a computed property or a class.
    package func ownStateOffset<Value>(of keyPath: WritableKeyPath<State, Value>) -> Int? {
        handle.stateNode?.ownStateOffset(of: keyPath)
    }

    /// Runs `work` on the tree's queue, after everything sent before it, with access to this store's node
    /// there. Returns `false` when the tree is gone and the work was dropped.
    @discardableResult
    package func withTreeAccess(_ work: @escaping @Sendable (borrowing TreeAccess<State, Action>) -> Void) -> Bool {
        let handle = self.handle
        return handle.enqueue {
            work(TreeAccess(handle: handle))
        }
    }
}

/// A store's node and its tree, on the tree's queue (see ``StateStore/withTreeAccess(_:)``).
package struct TreeAccess<State: Sendable, Action: Sendable>: ~Copyable {
    let handle: any StoreHandle<State, Action>

    /// The tree's serial queue.
    package var queue: DispatchQueue { handle.tree.queue }

    /// The tree's clock.
    package var scheduler: any DelayScheduler { handle.tree.scheduler }

    /// The store's node, to tell stores apart (``StateStore`` handles to one node share it), and to
    /// know when it is freed: it outlives its stores while a child of it lives. A view, which has no
    /// node of its own, gives its handle.
    package var nodeObject: AnyObject { handle.stateNode?.object ?? handle }

    /// The number of stores above this one.
    package var depth: Int { handle.stateNode?.depth ?? 0 }

    /// The tree's attachment of type `A`, made by `make` the first time.
    package func attachment<A: TreeAttachment>(_ make: () -> A) -> A {
        handle.tree.attachment(make)
    }

    /// The tree's attachment of type `A`, if it has one.
    package func attachment<A: TreeAttachment>(ifPresent type: A.Type) -> A? {
        handle.tree.attachment(ifPresent: type)
    }

    /// Runs `step` on the value at `offset` (from ``StateStore/ownStateOffset(of:)``) of the store's own
    /// state right after each of its reductions from now on, and once now, whenever the `Bool` stored
    /// `flag` bytes into that value is `true`.
    package func addAfterReduce<Value>(at offset: Int, when flag: Int, _ step: @escaping AfterReduceStep<Value>) {
        guard let node = handle.stateNode else {
            preconditionFailure("Internal inconsistency: an after-reduce step was added to a view")
        }
        precondition(
            flag >= 0 && flag + MemoryLayout<Bool>.size <= MemoryLayout<Value>.size,
            "Internal inconsistency: an after-reduce flag lies outside its value"
        )
        node.onQueue.addAfterReduce(AfterReduce(offset: offset, flag: flag, step: step))
    }
}
