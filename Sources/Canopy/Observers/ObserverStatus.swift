/// What an observer tells the store after it receives a state.
public enum ObserverStatus: Sendable {
    /// Keep sending states to this observer.
    case active
    /// Stop: the observer receives nothing more and the store lets go of it.
    case dead
}
