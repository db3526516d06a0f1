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
        let root = self.root
        // In place: `for child in children` copies each child out (a retain and a release of its
        // observer list), and `for observer in observers` each observer (of its closure's context),
        // about 25 instructions per observer that no tree has to pay.
        // Safety: the buffer is used only inside the closure, and every index comes from its `indices`.
        children.withUnsafeMutableBufferPointer { children in
            for child in children.indices {
                Self.notify(&children[child].observers, of: (root, children[child].local))
            }
        }
    }

    /// Reduces the child at `index` and leaves the root unchanged, so only that child's observers are
    /// called (tree-width): the floor knows which child changed without looking at the others.
    @inline(never)
    mutating func dispatchLocal(toChild index: Int) {
        children[index].local += 1
        Self.notify(&children[index].observers, of: (root, children[index].local))
    }

    /// Calls each of `observers` with `state`, borrowing each in place.
    @inline(__always)
    private static func notify(_ observers: inout [FloorObserver], of state: (Int, Int)) {
        // Safety: as in `dispatch(toChild:)`.
        observers.withUnsafeMutableBufferPointer { observers in
            for index in observers.indices {
                FloorObserver.call(&observers[index], with: state)
            }
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

    /// Calls `observer` with `state`. The observer comes `inout`, an exclusive access, so its closure is
    /// called in place; read as a value, it would be retained and released around the call.
    @inline(__always)
    static func call(_ observer: inout FloorObserver, with state: (Int, Int)) {
        observer.call(state)
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
