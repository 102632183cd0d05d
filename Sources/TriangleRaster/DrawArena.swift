import Synchronization
import RenderCore

/// One draw's storage shared by all setup chunks: each chunk claims a contiguous run with
/// an atomic cursor while the workers run, so chunks need no buffers of their own sized for
/// their busiest frame.
///
/// The arena is sized by the draw as a whole, which changes slowly as the eye moves, where a
/// chunk's own need jumps whenever a different part of the mesh comes into view. A claim
/// that does not fit returns nil (the chunk then uses storage of its own for this draw);
/// the next `reset` grows the arena to 1.5× what the last draw asked for, so allocation
/// stops once the warm-up has seen the largest view.
final class DrawArena<Element: BitwiseCopyable> {
    private let storage = ScratchBuffer<Element>()
    private let cursor = Atomic<Int>(0)
    /// Elements asked for since `reset`, including claims that did not fit.
    private let demand = Atomic<Int>(0)

    /// Whether the next `reset` will grow the arena (the last draw asked for more than it holds).
    var needsToGrow: Bool { demand.load(ordering: .relaxed) > storage.capacity }

    /// Empties the arena before a draw's setup stage; grows it first when the previous draw
    /// asked for more than it holds.
    func reset() {
        let asked = demand.load(ordering: .relaxed)
        cursor.store(0, ordering: .relaxed)
        demand.store(0, ordering: .relaxed)
        if asked > storage.capacity { storage.reserve(asked + asked / 2) }
    }

    /// `n` contiguous elements for this draw, or nil when the arena is full. Thread-safe.
    @inline(__always)
    func claim(_ n: Int) -> UnsafeMutablePointer<Element>? {
        demand.wrappingAdd(n, ordering: .relaxed)
        let start = cursor.wrappingAdd(n, ordering: .relaxed).oldValue
        return start + n <= storage.capacity ? storage.base + start : nil
    }
}
