// ScratchBuffer — a growable raw buffer reused across frames (never shrinks); both renderers'
// per-frame storage (vertices, work items, pairs, keys…) lives in these. Buffers of 4 MB and
// more are 2 MB-aligned and asked to be backed by transparent huge pages: the splat blender
// reads a frame's records by index, all over a buffer of tens of MB, and with 4 KB pages
// nearly every such read also missed the TLB.
#if canImport(Glibc)
import Glibc
#endif

/// Uninitialised storage for trivial values, grown on demand and reused across frames, so
/// the steady state allocates nothing. Growth is by at least 1.5×, so a buffer that follows a
/// slowly growing size reallocates O(log n) times. Not thread-safe: one owner sizes it, workers
/// may write disjoint ranges of `base` between sizings.
public final class ScratchBuffer<Element: BitwiseCopyable> {
    /// The storage (`capacity` elements, uninitialised unless written).
    public private(set) var base: UnsafeMutablePointer<Element>
    /// Elements the storage holds.
    public private(set) var capacity: Int

    /// A buffer of at least one element.
    public init(capacity: Int = 0) {
        self.capacity = max(1, capacity)
        base = Self.allocateStorage(self.capacity)
    }

    deinit { free(base) }

    /// Bytes from which storage is huge-page aligned and advised.
    static var hugeThreshold: Int { 4 << 20 }

    /// `n` elements of storage, 64-byte (cache-line) aligned, or for big buffers 2 MB-aligned with
    /// `MADV_HUGEPAGE` (a hint: on kernels with transparent huge pages set to `never` it is
    /// plain memory). Released with `free`.
    @usableFromInline
    static func allocateStorage(_ n: Int) -> UnsafeMutablePointer<Element> {
        let bytes = n * MemoryLayout<Element>.stride
        var raw: UnsafeMutableRawPointer?
        if bytes >= hugeThreshold {
            let huge = 2 << 20, rounded = (bytes + huge - 1) / huge * huge
            guard posix_memalign(&raw, huge, rounded) == 0, let p = raw else { fatalError("out of memory (\(rounded) bytes)") }
            #if os(Linux)
            _ = madvise(p, rounded, MADV_HUGEPAGE)
            #endif
        } else {
            let align = max(64, MemoryLayout<Element>.alignment)  // a cache line
            guard posix_memalign(&raw, align, max(bytes, 1)) == 0, raw != nil else { fatalError("out of memory (\(bytes) bytes)") }
        }
        return raw!.bindMemory(to: Element.self, capacity: n)
    }

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
        let p = Self.allocateStorage(newCapacity)
        let keep = min(max(0, preserving), capacity)
        if keep > 0 { p.update(from: base, count: keep) }
        free(base)
        base = p
        capacity = newCapacity
    }

    /// The storage as a region for `MemoryPrefault` (start address, bytes).
    public var region: (address: Int, bytes: Int) { (Int(bitPattern: base), capacity * MemoryLayout<Element>.stride) }

    /// Element `i` (unchecked).
    @inlinable public subscript(i: Int) -> Element {
        get { base[i] }
        set { base[i] = newValue }
    }
}
