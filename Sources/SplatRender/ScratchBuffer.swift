// ScratchBuffer — a growable raw buffer reused across frames (never shrinks).

/// Uninitialised storage for trivial values, grown on demand and reused across frames, so
/// the steady state allocates nothing.
final class ScratchBuffer<Element: BitwiseCopyable>: @unchecked Sendable {
    private(set) var base: UnsafeMutablePointer<Element>
    private(set) var capacity: Int

    init(capacity: Int = 0) {
        self.capacity = max(1, capacity)
        base = .allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    /// Makes room for `n` elements (contents are lost when it grows) and returns the base.
    @discardableResult
    func reserve(_ n: Int) -> UnsafeMutablePointer<Element> {
        if n > capacity {
            base.deallocate()
            capacity = max(n, capacity + capacity / 2)
            base = .allocate(capacity: capacity)
        }
        return base
    }
}
