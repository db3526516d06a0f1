#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The memory of an inbox buffer's actions and targets: blocks from the C allocator, so that a buffer
/// grows with `realloc`.
///
/// A burst of dispatches grows a buffer from 16 entries to as many as the burst holds, doubling each
/// time. Allocating anew copied every entry at each doubling (W3's burst of 10,000 child actions
/// copied 512 KB, ~50 instructions per action, and so did tree width's); `realloc` extends the block in
/// place when the allocator can, and moves a large one by remapping its pages rather than copying them.
/// Moving the bytes is a valid move of the entries when their type is bitwise-takable, which every type
/// an inbox holds is in practice (a type that is not, or that needs more alignment than `malloc` gives,
/// is moved one value at a time into a new block instead).
enum InboxMemory {
    /// Grows a block of values, moving them.
    ///
    /// - Parameters:
    ///   - old: Memory from this type, or `nil`; no longer valid afterwards.
    ///   - count: The number of initialised values at the start of `old`.
    ///   - capacity: The number of values the new memory holds, at least `count`.
    ///   - reallocating: Whether to grow the block with `realloc`; by default, when `Value` allows it
    ///     (tests pass `false` to check the other way).
    /// - Returns: Memory for `capacity` values, with the `count` values of `old` moved to its start.
    // Safety: the caller owns `old` (a block from here, or `nil`) and hands it over with its `count`
    // initialised values; each branch below says why moving them is valid.
    static func grown<Value>(
        _ old: UnsafeMutablePointer<Value>?,
        count: Int,
        toCapacity capacity: Int,
        reallocating: Bool = canReallocate(Value.self)
        // Safety: the caller owns the result until it passes it to `grown` again or to `deallocate`.
    ) -> UnsafeMutablePointer<Value> {
        precondition(count <= capacity, "Internal inconsistency: \(count) values do not fit in \(capacity)")
        // At least one byte, so that no block is asked for with size zero (a capacity of zero): `realloc`
        // to zero bytes may free the block and return `nil`.
        let byteCount = Swift.max(1, capacity * MemoryLayout<Value>.stride)
        guard reallocating else {
            // Safety: a new block of `capacity` strides, aligned for `Value`, bound to it before any use.
            let grown = allocate(byteCount, alignment: MemoryLayout<Value>.alignment).bindMemory(
                to: Value.self,
                capacity: capacity
            )
            if let old {
                // Safety: the caller passes the number of initialised values of `old`; they move over.
                grown.moveInitialize(from: old, count: count)
                free(old)
            }
            return grown
        }
        guard let raw = realloc(old, byteCount) else {
            fatalError("Out of memory: an inbox buffer could not grow to \(capacity) entries")
        }
        // Safety: `realloc` kept the first `count` values' bytes, which for a bitwise-takable type is a
        // move of the values; `old` is not used again.
        return raw.bindMemory(to: Value.self, capacity: capacity)
    }

    /// Frees memory from ``grown(_:count:toCapacity:reallocating:)``, whose values the caller has
    /// deinitialised or moved out. (Not named `free`, which would hide the C function here.)
    // Safety: see the body.
    static func deallocate(_ memory: UnsafeMutableRawPointer?) {
        // Safety: every block of an inbox buffer comes from `realloc` or `posix_memalign` (`grown`), both
        // of which `free` takes back, and its owner passes it here once, after its last use.
        free(memory)
    }

    /// Whether moving the bytes of values of `type` moves the values, and `malloc` aligns them.
    // Safety: the question `realloc`'s byte copy depends on, asked of the runtime, and malloc's alignment.
    static func canReallocate<Value>(_ type: Value.Type) -> Bool {
        _isBitwiseTakable(type) && MemoryLayout<Value>.alignment <= mallocAlignment
    }

    /// The alignment every `malloc` block has: twice a pointer's on the platforms Swift runs on.
    private static var mallocAlignment: Int { 2 * MemoryLayout<Int>.size }

    /// A block of `byteCount` bytes aligned to `alignment`, which `free` frees.
    // Safety: the block is returned to the caller (`grown`), which owns it from then on.
    private static func allocate(_ byteCount: Int, alignment: Int) -> UnsafeMutableRawPointer {
        // Safety: `posix_memalign` writes the block's address into `block` only when it returns 0, and
        // wants an alignment that is a power of two and a multiple of a pointer's size: a Swift type's
        // alignment is a power of two, raised here to a pointer's at least.
        var block: UnsafeMutableRawPointer?
        let status = posix_memalign(&block, Swift.max(alignment, MemoryLayout<Int>.size), byteCount)
        guard status == 0, let block else {
            fatalError("Out of memory: an inbox buffer could not grow to \(byteCount) bytes (error \(status))")
        }
        return block
    }
}
