/// A growable stack of plain values in raw memory, with one owner: the engine's scratch space between
/// the steps of one action, reused for every action.
///
/// Raw memory rather than an array, so that a push, a pop or a read costs no uniqueness check and no
/// retain of a buffer.
struct ScratchStack<Element: BitwiseCopyable>: ~Copyable {
    // Safety: `elements` is memory for `capacity` values, the first `count` of them initialised; the
    // values are plain data (`BitwiseCopyable`), so slots need no deinitialisation.
    private var elements: UnsafeMutablePointer<Element>
    private var capacity: Int
    /// The number of values on the stack.
    private(set) var count = 0

    init(capacity: Int = 16) {
        self.capacity = Swift.max(1, capacity)
        elements = .allocate(capacity: self.capacity)
    }

    deinit {
        elements.deallocate()
    }

    /// The value at `index`, counted from the bottom.
    subscript(index: Int) -> Element {
        precondition(index >= 0 && index < count, "Internal inconsistency: index \(index) of \(count)")
        return elements[index]
    }

    @inline(__always)
    mutating func push(_ element: Element) {
        if count == capacity {
            grow()
        }
        (elements + count).initialize(to: element)
        count += 1
    }

    @inline(__always)
    mutating func pop() -> Element? {
        guard count > 0 else { return nil }
        count -= 1
        return elements[count]
    }

    mutating func removeAll() {
        count = 0
    }

    // Safety: the new block replaces `elements` as the stack's own memory; the `count` initialised values
    // move over, and the old block, left with none, is freed.
    private mutating func grow() {
        let grown = UnsafeMutablePointer<Element>.allocate(capacity: 2 * capacity)
        grown.moveInitialize(from: elements, count: count)
        elements.deallocate()
        elements = grown
        capacity *= 2
    }
}
