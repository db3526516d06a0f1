import Dispatch

/// floor-sync for W3, W4 and tree-width: a root count and children that pair it with a count of their own.
///
/// Every action reduces one child and the root, then calls every child's observers with the child's
/// state, as a store tree does. A value type, like ``FloorStore``. Not thread-safe.
struct FloorTree {
    struct Child {
        fileprivate(set) var local = 0
        fileprivate var observers: [FloorObserver] = []
    }

    private(set) var root = 0
    private(set) var children: [Child] = []
    /// Something to release with the tree (W4's teardown signal).
    private let retained: AnyObject?

    init(retaining retained: AnyObject? = nil) {
        self.retained = retained
    }

    /// Adds a child and returns its index.
    mutating func addChild() -> Int {
        children.append(Child())
        return children.count - 1
    }

    /// Adds `observer` to the child at `index` and sends it the child's current state.
    mutating func subscribe(_ index: Int, _ observer: @escaping @Sendable ((Int, Int)) -> Void) {
        subscribe(index, FloorObserver(observer))
    }

    /// Adds `observer` to the child at `index` and sends it the child's current state.
    mutating func subscribe(_ index: Int, _ observer: FloorObserver) {
        children[index].observers.append(observer)
        observer.call((root, children[index].local))
    }

    @inline(never)
    mutating func dispatch(toChild index: Int) {
        children[index].local += 1
        root += 1
        for child in children {
            let state = (root, child.local)
            for observer in child.observers {
                observer.call(state)
            }
        }
    }

    /// Reduces the child at `index` and leaves the root unchanged, so only that child's observers are
    /// called (tree-width): the floor knows which child changed without looking at the others.
    @inline(never)
    mutating func dispatchLocal(toChild index: Int) {
        children[index].local += 1
        let state = (root, children[index].local)
        for observer in children[index].observers {
            observer.call(state)
        }
    }
}

/// An observer of a ``FloorTree`` child.
///
/// A struct, so that an array of observers holds each closure as written, taking its two integers
/// directly. An array of bare closures holds them in the form any generic code can call (the argument
/// passed in memory), and every call goes through a conversion thunk: on floor-queue's way, three of
/// them, one per hop, which were more than half of what W3's floor-queue cost per child (1,556 → 721).
struct FloorObserver: Sendable {
    /// Called with the child's state, `(root, local)`.
    let call: @Sendable ((Int, Int)) -> Void

    init(_ call: @escaping @Sendable ((Int, Int)) -> Void) {
        self.call = call
    }
}

/// floor-queue for W3, W4 and tree-width: the same tree behind a bare serial `DispatchQueue`.
final class FloorQueueTree: @unchecked Sendable {
    // Safety: `tree` is used only inside blocks run on `queue`, a serial queue, which serialises every
    // access and orders it before any `queue.sync` that reads it back.
    private let queue: DispatchQueue
    private var tree: FloorTree

    init(retaining retained: (AnyObject & Sendable)? = nil) {
        self.queue = DispatchQueue(label: "floor-queue", qos: .userInteractive)
        self.tree = FloorTree(retaining: retained)
    }

    /// Adds a child on the queue; its index is the number of children added before it.
    func addChild(observers: [FloorObserver]) {
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

    func dispatchLocal(toChild index: Int) {
        queue.async { self.tree.dispatchLocal(toChild: index) }
    }

    /// Blocks until every block enqueued before has run and returns the root and child counts.
    func settledState() -> (root: Int, locals: [Int]) {
        queue.sync { (tree.root, tree.children.map(\.local)) }
    }
}
