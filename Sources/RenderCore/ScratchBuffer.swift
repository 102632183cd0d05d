// ScratchBuffer — a growable raw buffer reused across frames (never shrinks); both renderers'
// per-frame storage (vertices, work items, pairs, keys…) lives in these.

/// Uninitialised storage for trivial values, grown on demand and reused across frames, so
/// the steady state allocates nothing. Growth is by at least 1.5×, so a buffer that follows a
/// slowly growing size reallocates O(log n) times. Not thread-safe: one owner sizes it, workers
/// may write disjoint ranges of `base` between sizings.
public final class ScratchBuffer<Element: BitwiseCopyable>: @unchecked Sendable {
    /// The storage (`capacity` elements, uninitialised unless written).
    public private(set) var base: UnsafeMutablePointer<Element>
    /// Elements the storage holds.
    public private(set) var capacity: Int

    /// A buffer of at least one element.
    public init(capacity: Int = 0) {
        self.capacity = max(1, capacity)
        base = .allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    /// Makes room for `n` elements and returns the base. When it grows, the first `preserving`
    /// elements are copied over; the rest of the contents are lost.
    @inlinable @discardableResult
    public func reserve(_ n: Int, preserving: Int = 0) -> UnsafeMutablePointer<Element> {
        if n > capacity { grow(to: n, preserving: preserving) }
        return base
    }

    @usableFromInline
    func grow(to n: Int, preserving: Int) {
        let newCapacity = max(n, capacity + capacity / 2)
        let p = UnsafeMutablePointer<Element>.allocate(capacity: newCapacity)
        let keep = min(max(0, preserving), capacity)
        if keep > 0 { p.update(from: base, count: keep) }
        base.deallocate()
        base = p
        capacity = newCapacity
    }

    /// Element `i` (unchecked).
    @inlinable public subscript(i: Int) -> Element {
        get { base[i] }
        set { base[i] = newValue }
    }
}
