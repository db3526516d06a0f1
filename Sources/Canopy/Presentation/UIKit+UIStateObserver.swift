#if canImport(UIKit)
public import UIKit

// View controllers and views get the `subscribe` family: their subscriptions end when they are
// released. Nothing else in Canopy depends on UIKit.
extension UIViewController: UIStateObserver {}

extension UIView: UIStateObserver {}
#endif
