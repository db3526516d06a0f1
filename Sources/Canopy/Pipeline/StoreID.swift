/// Names one node of a store tree: the path of child indices from the root.
///
/// The root is `root`; its second child is `root/1`; that child's first child is `root/1/0`. A node
/// keeps the same identifier for its whole life, so diagnostics and middleware can tell the nodes of a
/// tree apart and a log can name the node an action was sent to.
///
/// ```swift
/// let id = StoreID.root.child(1).child(0)
/// print(id)  // root/1/0
/// ```
public struct StoreID: Hashable, Sendable, CustomStringConvertible {
    /// The child indices from the root down to the node; empty for the root.
    public let path: [Int]

    /// Creates the identifier of the node reached from the root through `path`.
    ///
    /// - Parameter path: Child indices from the root, each zero or more.
    public init(path: [Int]) {
        precondition(path.allSatisfy { $0 >= 0 }, "StoreID needs non-negative child indices, got \(path)")
        self.path = path
    }

    /// An identifier whose indices the caller knows are valid: no check.
    init(knownValidPath path: [Int]) {
        self.path = path
    }

    /// The root of a tree.
    public static let root = StoreID(path: [])

    /// The identifier of this node's child at `index`.
    ///
    /// - Parameter index: The child's position among this node's children, from zero.
    /// - Returns: The child's identifier.
    public func child(_ index: Int) -> StoreID {
        StoreID(path: path + [index])
    }

    /// The number of edges between the root and the node; zero for the root.
    public var depth: Int {
        path.count
    }

    /// The path as text: `root`, then each child index, separated by `/` (for example `root/1/0`).
    public var description: String {
        path.reduce(into: "root") { text, index in text += "/\(index)" }
    }
}
