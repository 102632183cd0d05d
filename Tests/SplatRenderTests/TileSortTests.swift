// The per-tile depth sort against an obvious reference: the truncated radix sort (with its
// insertion fix-up and exact fallback) must give exactly a stable sort by the 32-bit key,
// whatever the spread of the keys — one digit, every bit, clusters of nearly equal depth.
@testable import SplatRender
import Testing
import TestSupport

@Suite("tile sort")
struct TileSortTests {
    /// Keys for `n` pairs: `lo` plus offsets below 2^`bits`, some clustered within a few ulps.
    static func keys(_ n: Int, bits: Int, clustered: Double, seed: UInt64) -> [UInt32] {
        var state = seed &* 0x9E37_79B9_7F4A_7C15 | 1
        func next() -> UInt64 {  // xorshift64*
            state ^= state >> 12; state ^= state << 25; state ^= state >> 27
            return state &* 0x2545_F491_4F6C_DD1D
        }
        // Offsets from 0 up to 2^bits − 1, so the keys vary in exactly the low `bits` bits.
        let base: UInt32 = bits >= 32 ? 0 : 0x3F80_0000  // 1.0 as IEEE bits
        let mask = bits >= 32 ? UInt64(UInt32.max) : (UInt64(1) << UInt64(bits)) - 1
        let centre = UInt32(truncatingIfNeeded: mask / 3)
        return (0..<n).map { i in
            if i == 0 { return base }
            if i == 1 { return base &+ UInt32(truncatingIfNeeded: mask) }
            if Double(next() % 1000) < clustered * 1000 { return base &+ centre &+ UInt32(next() % 6) }
            return base &+ UInt32(truncatingIfNeeded: next() & mask)
        }
    }

    /// Sorts the pairs (key, input index) with `truncatedRadixSort` and compares with the
    /// reference order (key, then input index: the sort is stable).
    static func check(_ keys: [UInt32]) -> Bool {
        let n = keys.count
        var pairs = keys.enumerated().map { TilePair($0.element) | TilePair($0.offset) << 32 }
        var tmp = [TilePair](repeating: 0, count: n)
        var hist = [Int32](repeating: 0, count: TileSortWork.buckets)
        pairs.withUnsafeMutableBufferPointer { p in
            tmp.withUnsafeMutableBufferPointer { t in
                hist.withUnsafeMutableBufferPointer { h in
                    TileSortWork.truncatedRadixSort(p.baseAddress!, t.baseAddress!, n, h.baseAddress!)
                }
            }
        }
        let expected = keys.enumerated().sorted { ($0.element, $0.offset) < ($1.element, $1.offset) }
            .map { TilePair($0.element) | TilePair($0.offset) << 32 }
        return pairs == expected
    }

    @Test(arguments: [1, 5, 8, 9, 12, 16, 17, 20, 24, 25, 28, 32])
    func matchesAStableSortForEveryKeySpread(bits: Int) {
        for (n, seed) in [(49, 1), (300, 2), (1000, 3), (4000, 4)] as [(Int, UInt64)] {
            #expect(Self.check(Self.keys(n, bits: bits, clustered: 0, seed: seed + UInt64(bits))),
                    "n \(n), \(bits) varying bits")
        }
    }

    /// Most keys within a few ulps of each other and a wide spread around them: the insertion
    /// pass would have to move many pairs, so the exact radix sort takes over.
    @Test(arguments: [0.3, 0.9, 1.0])
    func clustersOfNearlyEqualDepthStillSortExactly(clustered: Double) {
        for bits in [16, 24, 32] {
            #expect(Self.check(Self.keys(3000, bits: bits, clustered: clustered, seed: 9)),
                    "\(Int(clustered * 100)) % clustered, \(bits) bits")
        }
    }

    /// Real depths: near and far in one tile, two 1 cm apart at 500 m.
    @Test func nearAndFarDepths() {
        var rng = SplitMix(seed: 11)  // from DepthPrecisionTests
        var depths: [Float] = (0..<600).map { _ in rng.next() < 0.5 ? 1 + rng.next() : 1000 + 5 * rng.next() }
        depths += [500, 500.01, 500.01, 500]
        #expect(Self.check(depths.map(\.bitPattern)))
    }
}
