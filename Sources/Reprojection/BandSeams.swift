// BandSeams — one counter per seam between two scatter bands, so that the worker finishing
// the second of a seam's two bands fills the rows around it at once, with no stage of its own
// (and no hand-off between threads) for the fill.
import Synchronization

/// Per seam (the edge between bands s and s + 1): how many of its two bands are still to be
/// resolved. Grown on demand, reused across warps; `reset` before each scatter.
final class BandSeams {
    private(set) var base: UnsafeMutablePointer<Atomic<Int>>
    private var capacity = 0

    init() { base = .allocate(capacity: 1); base.initialize(to: Atomic(0)); capacity = 1 }

    deinit { base.deinitialize(count: capacity); base.deallocate() }

    /// Room for `count` seams, each set to 2 (both bands pending). Call between stages only.
    func reset(count: Int) {
        if count > capacity {
            base.deinitialize(count: capacity); base.deallocate()
            capacity = max(count, capacity * 3 / 2)
            base = .allocate(capacity: capacity)
            for k in 0..<capacity { (base + k).initialize(to: Atomic(2)) }
        }
        for k in 0..<count { base[k].store(2, ordering: .relaxed) }
    }
}
