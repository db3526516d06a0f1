/// The nodes the engine's walk down still has to visit, last pushed first: its scratch space, one owner,
/// reused for every action.
///
/// Raw memory rather than an array, so a push or a pop costs no uniqueness check and no bounds check.
struct WalkStack: ~Copyable {
    /// A node the walk down still has to visit.
    struct Visit {
        /// The node: on the action's path, which keeps it alive, or in its parent's child list, which
        /// holds it.
        let node: Unmanaged<TreeNode>
        /// Whether the parent's state may have changed.
        let parentChanged: Bool
        /// The node's index in the path, or -1 when it is off the path.
        let pathIndex: Int
    }

    // Safety: `visits` is memory for `capacity` visits, the first `count` of them initialised. `Visit`
    // is a trivial type, so slots need no deinitialisation.
    private var visits: UnsafeMutablePointer<Visit>
    private var capacity: Int
    /// The number of visits waiting.
    private(set) var count = 0

    init() {
        capacity = 32
        visits = .allocate(capacity: capacity)
    }

    deinit {
        visits.deallocate()
    }

    @inline(__always)
    mutating func push(_ visit: Visit) {
        if count == capacity {
            grow()
        }
        (visits + count).initialize(to: visit)
        count += 1
    }

    @inline(__always)
    mutating func pop() -> Visit? {
        guard count > 0 else { return nil }
        count -= 1
        return visits[count]
    }

    private mutating func grow() {
        let grown = UnsafeMutablePointer<Visit>.allocate(capacity: 2 * capacity)
        grown.moveInitialize(from: visits, count: count)
        visits.deallocate()
        visits = grown
        capacity *= 2
    }
}
