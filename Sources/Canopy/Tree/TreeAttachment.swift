/// An object another module of this package keeps per store tree (`CanopyPersistence`'s coordinator of
/// writers), created on the tree's queue at first use and told when the tree ends.
package protocol TreeAttachment: AnyObject, Sendable {
    /// Called once, from the tree's deinit, on whatever thread releases the tree's last node: the tree's
    /// queue runs nothing of the tree any more.
    func treeWillEnd()
}
