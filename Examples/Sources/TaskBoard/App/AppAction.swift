/// Every action of the board. Child stores share the root's action type; each reducer handles its own.
enum AppAction: Sendable {
    case add(String)
    case complete(Int)
    case showOnlyOpen(Bool)
}
