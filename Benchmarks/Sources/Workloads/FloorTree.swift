import Dispatch

/// floor-sync for W3 and W4: a root count and children that pair it with a count of their own.
///
/// Every action reduces one child and the root, then calls every child's observers with the child's
/// state, as a store tree does. Not thread-safe: one thread uses it at a time.
final class FloorTree {
    final class Child {
        fileprivate(set) var local = 0
        fileprivate var observers: [((Int, Int)) -> Void] = []
    }

    private(set) var root = 0
    private(set) var children: [Child] = []

    @discardableResult
    func addChild() -> Child {
        let child = Child()
        children.append(child)
        return child
    }

    /// Adds `observer` to `child` and sends it the child's current state.
    func subscribe(_ child: Child, _ observer: @escaping ((Int, Int)) -> Void) {
        child.observers.append(observer)
        observer((root, child.local))
    }

    @inline(never)
    func dispatch(toChild index: Int) {
        children[index].local += 1
        root += 1
        for child in children {
            let state = (root, child.local)
            for observer in child.observers {
                observer(state)
            }
        }
    }
}

/// floor-queue for W3 and W4: the same tree behind a bare serial `DispatchQueue`.
final class FloorQueueTree: @unchecked Sendable {
    // Safety: `tree` is used only inside blocks run on `queue`, a serial queue, which serialises every
    // access and orders it before any `queue.sync` that reads it back.
    private let queue: DispatchQueue
    private let tree = FloorTree()

    init() {
        self.queue = DispatchQueue(label: "floor-queue", qos: .userInteractive)
    }

    /// Adds a child on the queue; its index is the number of children added before it.
    func addChild(observers: [@Sendable ((Int, Int)) -> Void]) {
        queue.async {
            let child = self.tree.addChild()
            for observer in observers {
                self.tree.subscribe(child, observer)
            }
        }
    }

    func dispatch(toChild index: Int) {
        queue.async { self.tree.dispatch(toChild: index) }
    }

    /// Blocks until every block enqueued before has run and returns the root and child counts.
    func settledState() -> (root: Int, locals: [Int]) {
        queue.sync { (tree.root, tree.children.map(\.local)) }
    }
}
