// The 8-lane blender's row filter (`csimd_rows_with_live16`: one AVX2 compare of a tile's
// sixteen 16-bit live-column masks with a rectangle's columns) against a row-by-row reference,
// on random masks, empty and full rows, single columns and every column set.
import CSIMD
import Testing

@Suite("8-lane blender's live rows")
struct LiveRowsTests {
    /// Two bits per row (row r at bits 2r and 2r + 1) where `live[r] & cols` is nonzero.
    static func reference(_ live: [UInt16], _ cols: UInt32) -> UInt32 {
        var m: UInt32 = 0
        for r in 0..<16 where UInt32(live[r]) & cols != 0 { m |= 3 << (2 * r) }
        return m
    }

    @Test func rowsWithALivePixelInTheColumnsMatchTheReference() {
        var rng = Xorshift(state: 0x11FE_5EED)
        var checked = 0
        for trial in 0..<2000 {
            var live = (0..<16).map { _ in UInt16(truncatingIfNeeded: rng.next()) }
            // Sparse masks too: rows that finished, rows with one live pixel.
            if trial % 3 == 0 { live = live.map { $0 & UInt16(truncatingIfNeeded: rng.next()) & UInt16(truncatingIfNeeded: rng.next()) } }
            if trial % 5 == 0 { live[Int(rng.next() % 16)] = 0 }
            let lo = Int(rng.next() % 16), hi = lo + Int(rng.next() % UInt64(16 - lo))
            var cols = UInt32((1 << (hi - lo + 1)) - 1) << UInt32(lo)
            if trial % 7 == 0 { cols = 0xFFFF }
            if trial % 11 == 0 { cols = 1 << UInt32(rng.next() % 16) }
            let fast = live.withUnsafeBufferPointer { csimd_rows_with_live16($0.baseAddress!, cols) }
            #expect(fast == Self.reference(live, cols), "live \(live), columns \(String(cols, radix: 2))")
            checked += 1
        }
        let none = [UInt16](repeating: 0, count: 16), all = [UInt16](repeating: 0xFFFF, count: 16)
        #expect(none.withUnsafeBufferPointer { csimd_rows_with_live16($0.baseAddress!, 0xFFFF) } == 0)
        #expect(all.withUnsafeBufferPointer { csimd_rows_with_live16($0.baseAddress!, 0x0100) } == 0xFFFF_FFFF)
        #expect(checked == 2000)
    }

    /// xorshift64: deterministic inputs.
    struct Xorshift {
        var state: UInt64
        mutating func next() -> UInt64 {
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            return state
        }
    }
}
