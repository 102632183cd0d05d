// SharedPointer — raw memory of trivial values that several threads use at once: the one
// audited exception that lets the renderers' storage types (`Texture`, `ScratchBuffer`, the
// splat and triangle renderers' buffers) be checked `Sendable` while their hot loops keep
// reading and writing through plain unsafe pointers.

/// A pointer to raw storage of `BitwiseCopyable` values (no references inside, nothing to
/// retain or release), shared between threads under one rule: between two barriers (a
/// `WorkerPool.run` returning, a frame ending, a texture's owner updating it between frames)
/// each element is written by at most one thread and then read by no other. Disjoint ranges for
/// the workers of one stage, read-only in between.
///
/// It owns nothing: the type that allocates the memory frees it, and keeps one `SharedPointer`
/// to it per allocation as an immutable stored property, so that its own `Sendable` conformance
/// is checked by the compiler. Hot loops take `base` once (per stage or per tile) and index it
/// directly: no indirection per element.
@frozen
// Audited: between barriers every element is written by at most one thread and read by no other (disjoint ranges per worker, read-only otherwise).
public struct SharedPointer<Element: BitwiseCopyable>: @unchecked Sendable {
    /// The storage's first element.
    public let base: UnsafeMutablePointer<Element>

    @inlinable @inline(__always)
    public init(_ base: UnsafeMutablePointer<Element>) { self.base = base }

    /// `count` uninitialised elements (freed with `deallocate`).
    @inlinable
    public static func allocate(capacity count: Int) -> SharedPointer {
        SharedPointer(.allocate(capacity: count))
    }

    /// Frees storage made by `allocate(capacity:)`.
    @inlinable
    public func deallocate() { base.deallocate() }
}
