// SplatDepthOrder — a prepared cloud's slots in view-depth order for one view rotation, kept
// across frames while only the eye moves.
//
// The renderer's sort key is planar view depth, d = −(r·p + t) for the view matrix's third row
// r (its rotation and scale, world → camera) and translation t. When only the eye translates —
// the window's off-axis camera under a fixed screen, the bench's figure-eight, a replayed track —
// r stays bit for bit the same and only t changes, so r·p orders the splats the same way for
// every eye. One O(n) radix sort of r·p (descending: nearest first) when the rotation or the
// model's placement changes then lets binning write every tile's list already in depth order;
// the per-tile sort is left with checking (and, where float rounding or equal depths disagree
// with this order, repairing) a few tiles. Splats with opacity below 1/255 (always culled) are
// left out.
import Foundation
import RenderCore

/// The slots of a `PreparedSplats` sorted by descending r·p for one view rotation row r: nearest
/// first for every camera whose view matrix has that third row. Immutable once built; shared by
/// the frames (and renderers) that draw the same splats under the same rotation.
final class SplatDepthOrder: Sendable {
    /// The view matrix's third row (x, y, z coefficients) the order was made for.
    let row: SIMD3<Float>
    /// The splats' `PreparedSplats.generation` when the order was made.
    let generation: Int
    /// Prepared slots, nearest first, equal r·p in source-index order (`count` of them;
    /// always-culled splats left out).
    let slots: SharedPointer<UInt32>
    /// Slots in the order.
    let count: Int

    /// Sorts the slots of `splats` by descending r·p, computed in Float exactly as preprocessing
    /// computes the view depth (without the translation): a stable LSD radix sort, 11 bits a
    /// pass over the keys' order-preserving bit patterns. O(n); ~10 ms per million splats,
    /// single-threaded. Allocates the order and its scratch.
    init(_ splats: PreparedSplats, row: SIMD3<Float>) {
        self.row = row
        generation = splats.generation
        let n = splats.count
        let px = splats.field(.x), py = splats.field(.y), pz = splats.field(.z), op = splats.field(.opacity)
        let keys = UnsafeMutablePointer<UInt32>.allocate(capacity: max(1, n) * 2)
        let slotsA = UnsafeMutablePointer<UInt32>.allocate(capacity: max(1, n))
        let slotsB = UnsafeMutablePointer<UInt32>.allocate(capacity: max(1, n))
        defer { keys.deallocate(); slotsB.deallocate() }
        // The slots go into the (stable) sort in source-index order, so that splats of exactly
        // equal r·p come out in source order, as the per-tile sort leaves equal depths.
        let bySource = Self.slotsBySource(splats)
        var kept = 0
        for s in 0..<n {
            let i = bySource.map { Int($0[s]) } ?? s
            guard op[i] >= SplatTunables.alphaMin else { continue }
            let k = px[i] * row.x + py[i] * row.y + pz[i] * row.z   // as `projectGroup`'s tz, less t
            keys[kept] = ~Self.orderedBits(k)   // descending k = ascending depth
            slotsA[kept] = UInt32(truncatingIfNeeded: i)
            kept += 1
        }
        Self.radixSort(keys: keys, scratchKeys: keys + max(1, n), slots: slotsA, scratchSlots: slotsB, count: kept)
        slots = SharedPointer(slotsA)
        count = kept
    }

    deinit { slots.deallocate() }

    /// The prepared slots of `splats` by source index (nil when the source indices are not a
    /// permutation of the slots: then slot order).
    static func slotsBySource(_ splats: PreparedSplats) -> [UInt32]? {
        let n = splats.count
        var bySource = [UInt32](repeating: .max, count: n)
        for slot in 0..<n {
            let s = Int(splats.sourceIndex[slot])
            guard s < n, bySource[s] == .max else { return nil }
            bySource[s] = UInt32(truncatingIfNeeded: slot)
        }
        return bySource
    }

    /// Whether a camera whose view matrix has third row `row` may use this order for splats of
    /// generation `generation` (exact equality: the window's rotation never varies in its bits).
    func fits(row: SIMD3<Float>, generation: Int) -> Bool {
        self.row == row && self.generation == generation
    }

    /// A UInt32 that orders like the Float `x` (−0 just below +0; NaNs at the ends).
    @inline(__always)
    static func orderedBits(_ x: Float) -> UInt32 {
        let b = x.bitPattern
        return b & 0x8000_0000 != 0 ? ~b : b | 0x8000_0000
    }

    /// Stable LSD radix sort of `count` (key, slot) entries by key, 11-bit digits (three
    /// passes); the result ends in `keys`/`slots`.
    static func radixSort(keys: UnsafeMutablePointer<UInt32>, scratchKeys: UnsafeMutablePointer<UInt32>,
                          slots: UnsafeMutablePointer<UInt32>, scratchSlots: UnsafeMutablePointer<UInt32>, count n: Int) {
        let bits = 11, buckets = 1 << bits
        var hist = [Int](repeating: 0, count: buckets)
        var (ks, kd, ss, sd) = (keys, scratchKeys, slots, scratchSlots)
        for shift in stride(from: 0, to: 32, by: bits) {
            hist.withUnsafeMutableBufferPointer { h in
                h.update(repeating: 0)
                for i in 0..<n { h[Int((ks[i] >> UInt32(shift)) & UInt32(buckets - 1))] &+= 1 }
                var running = 0
                for d in 0..<buckets { let c = h[d]; h[d] = running; running &+= c }
                for i in 0..<n {
                    let k = ks[i], d = Int((k >> UInt32(shift)) & UInt32(buckets - 1))
                    let p = h[d]; h[d] = p &+ 1
                    kd[p] = k; sd[p] = ss[i]
                }
            }
            swap(&ks, &kd); swap(&ss, &sd)
        }
        if ss != slots { slots.update(from: ss, count: n); keys.update(from: ks, count: n) }
    }
}
