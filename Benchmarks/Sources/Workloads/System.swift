/// One of the three implementations every workload runs side by side.
public enum System: String, CaseIterable, Sendable {
    /// The same work with no queue at all: the physical floor.
    case floorSync = "floor-sync"
    /// A bare serial `DispatchQueue` with one `async` per action: the cost of the naive design.
    case floorQueue = "floor-queue"
    /// A Canopy store tree.
    case canopy = "canopy"

    /// The systems in the order a given round runs them; rotating the order spreads slow phases of a
    /// shared machine over all three.
    public static func order(round: Int) -> [System] {
        let all = allCases
        return all.indices.map { all[(round + $0) % all.count] }
    }
}
