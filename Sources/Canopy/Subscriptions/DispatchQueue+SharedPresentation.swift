public import Dispatch

// STYLE says not to add members to Dispatch types. `DispatchQueue.sharedPresentationQueue` is one of
// the two sanctioned exceptions (with `TimeInterval.uiDebounce`): it is part of the Puredux-compatible
// surface, where it is the default of every `presentationQueue:` parameter.
extension DispatchQueue {
    /// The serial queue on which subscribers compute their props unless they pass another one.
    ///
    /// It runs at `.userInteractive` quality of service and is shared by every subscription in the
    /// process, so props computations never run in parallel with each other. Pass your own serial
    /// queue when props are expensive enough to hold up other screens, or `.main` when they are
    /// trivial and you want to skip a queue hop.
    ///
    /// ```swift
    /// subscribe(store: store, props: Props.init, presentationQueue: .sharedPresentationQueue) { props in
    ///     render(props)
    /// }
    /// ```
    public static let sharedPresentationQueue = DispatchQueue(
        label: "canopy.presentation",
        qos: .userInteractive
    )
}
