// The block kernel's sub-binning (`BlockChunk.subBin`: 16 pairs at a time, gathers and 16-lane
// integer operations with AVX-512, a C loop elsewhere) against its pair-by-pair reference:
// rectangles inside the tile, across each of its sides and corners, single pixels, whole
// tiles, groups shorter than 16 and a live-block mask with holes.
@testable import SplatRender
import Testing

@Suite("block kernel sub-binning")
struct BlockSubBinTests {
    /// `count` pairs over records whose rectangles all overlap the tile at (`tx`, `ty`), sub-binned
    /// by both, compared entry by entry (entries past `count` must have no blocks).
    static func check(count: Int, tx: Int, ty: Int, live: UInt32, seed: UInt64) {
        var rng = SplitMix(seed)
        let records = UnsafeMutablePointer<ProjectedSplat>.allocate(capacity: 64)
        defer { records.deallocate() }
        for i in 0..<64 {
            // Corners up to 40 pixels outside the tile on either side, clipped at 0 like the
            // preprocessor's; the far corner is chosen so that the rectangle meets the tile.
            let x0 = max(0, tx + Int(rng.next() % 56) - 40), y0 = max(0, ty + Int(rng.next() % 56) - 40)
            let x1 = max(x0, tx) + Int(rng.next() % 56), y1 = max(y0, ty) + Int(rng.next() % 56)
            var r = ProjectedSplat.empty
            (r.x0, r.y0, r.x1, r.y1) = (Int16(x0), Int16(y0), Int16(x1), Int16(y1))
            if i % 7 == 0 { (r.x0, r.y0, r.x1, r.y1) = (Int16(tx + 5), Int16(ty + 9), Int16(tx + 5), Int16(ty + 9)) }
            records[i] = r
        }
        var pairs = (0..<16).map { _ in UInt64(rng.next() % 64) << 32 | UInt64(rng.next() & 0xFFFF_FFFF) }
        var slots = [UInt32](repeating: 0, count: 16), masks = [UInt32](repeating: 7, count: 16)
        var cols = [UInt32](repeating: 0, count: 16), rows = [UInt64](repeating: 0, count: 16)
        slots.withUnsafeMutableBufferPointer { s in
            cols.withUnsafeMutableBufferPointer { c in
                rows.withUnsafeMutableBufferPointer { r in
                    let chunk = BlockChunk(records: records, slots: s.baseAddress!, cols: c.baseAddress!, rows: r.baseAddress!)
                    pairs.withUnsafeMutableBufferPointer { p in
                        masks.withUnsafeMutableBufferPointer { m in
                            chunk.subBin(p.baseAddress!, count: count, at: 0, tileX: tx, tileY: ty, live: live,
                                         masks: m.baseAddress!)
                        }
                    }
                }
            }
        }
        for i in 0..<16 {
            guard i < count else {
                #expect(masks[i] == 0, "entry \(i) past the \(count) pairs has blocks \(masks[i])")
                continue
            }
            let slot = UInt32(pairs[i] >> 32)
            let want = BlockChunk.subBinReference(records[Int(slot)], tileX: tx, tileY: ty, live: live)
            let r = records[Int(slot)]
            let what = "pair \(i), rectangle (\(r.x0), \(r.y0))–(\(r.x1), \(r.y1)), tile (\(tx), \(ty))"
            #expect(slots[i] == slot, "\(what): slot")
            #expect(masks[i] == want.mask, "\(what): blocks \(String(masks[i], radix: 2)) vs \(String(want.mask, radix: 2))")
            #expect(cols[i] == want.cols, "\(what): columns \(String(cols[i], radix: 2)) vs \(String(want.cols, radix: 2))")
            #expect(rows[i] == want.rows, "\(what): rows \(String(rows[i], radix: 16)) vs \(String(want.rows, radix: 16))")
        }
    }

    @Test("matches the reference pair by pair", arguments: [16, 9, 8, 1])
    func matchesReference(count: Int) {
        for (n, tile) in [(0, 0), (16, 0), (0, 16), (320, 48), (1264, 704)].enumerated() {
            Self.check(count: count, tx: tile.0, ty: tile.1, live: 0xFFFF, seed: UInt64(100 * count + n))
            Self.check(count: count, tx: tile.0, ty: tile.1, live: 0b1011_0110_1101_0011, seed: UInt64(7 + 100 * count + n))
        }
    }

    /// A small deterministic generator (SplitMix64).
    struct SplitMix {
        var state: UInt64
        init(_ seed: UInt64) { state = seed }
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }
}
