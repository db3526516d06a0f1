#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

// STYLE says not to add members to Foundation types. `TimeInterval.uiDebounce` is one of the two
// sanctioned exceptions (with `DispatchQueue.sharedPresentationQueue`): it is part of the
// Puredux-compatible surface, where it is the default of every `debounceFor:` parameter.
extension TimeInterval {
    /// The debounce window subscribers get by default: 7 milliseconds.
    ///
    /// Long enough to fold the states of one burst of actions into a single delivery, short enough to
    /// stay well inside one frame.
    ///
    /// ```swift
    /// subscribe(store: store, props: Props.init, debounceFor: .uiDebounce) { props in render(props) }
    /// ```
    public static let uiDebounce: TimeInterval = 0.007
}
