// BlockChunk — one chunk of a tile's sorted pairs as the block kernel's blend loops read it
// (BlockBlendKernel.swift): per pair its record slot and its rectangle cut to the tile
// as pixel-column and pixel-row bits, so that a block finds the lanes inside a splat's
// rectangle with a few integer operations instead of four float comparisons per splat.

import CSIMD

/// A chunk of sub-binned pairs (index k < `BlockBlendScratch.chunkPairs`): slot `slots[k]` in
/// `records`, tile-relative columns `cols[k]` (bit c: pixel column c of the tile is inside the
/// rectangle) and rows `rows[k]` (bits 4r…4r+3 all set when pixel row r of the tile is).
struct BlockChunk {
    let records: UnsafeMutablePointer<ProjectedSplat>
    let slots: UnsafeMutablePointer<UInt32>
    let cols: UnsafeMutablePointer<UInt32>
    let rows: UnsafeMutablePointer<UInt64>

    /// Sub-bins the tile's pairs `pairs[0..<count]` (count ≤ 16; slot in the high 32 bits) into
    /// entries `at…at+15` of `slots`, `cols`, `rows` and `masks` (the blocks each touches, and-ed
    /// with `live`; 0 from `count` on) for the 16×16 tile at pixel (`tileX`, `tileY`). With
    /// AVX-512 one pass of 16-lane integer operations and two gathers (`csimd_subbin16`);
    /// `subBinReference` is the same, pair by pair.
    @inline(__always)
    func subBin(_ pairs: UnsafeMutablePointer<UInt64>, count: Int, at: Int, tileX: Int, tileY: Int, live: UInt32,
                masks: UnsafeMutablePointer<UInt32>) {
        UnsafeRawPointer(records).withMemoryRebound(to: CChar.self, capacity: 1) {
            csimd_subbin16(pairs, Int32(truncatingIfNeeded: count), $0, Int32(MemoryLayout<ProjectedSplat>.stride),
                           Int32(MemoryLayout<ProjectedSplat>.offset(of: \.x0)!), Int32(truncatingIfNeeded: tileX),
                           Int32(truncatingIfNeeded: tileY), live, slots + at, masks + at, cols + at, rows + at)
        }
    }

    /// `subBin` for one pair whose record is `r`, plainly: its block mask (and-ed with `live`),
    /// column bits and row nibbles.
    static func subBinReference(_ r: ProjectedSplat, tileX: Int, tileY: Int, live: UInt32)
        -> (mask: UInt32, cols: UInt32, rows: UInt64) {
        // The rectangle clamped to the tile (which it overlaps), in tile pixels.
        let c0 = max(Int(r.x0) - tileX, 0), c1 = min(Int(r.x1) - tileX, 15)
        let r0 = max(Int(r.y0) - tileY, 0), r1 = min(Int(r.y1) - tileY, 15)
        var cols: UInt32 = 0, rows: UInt64 = 0, mask: UInt32 = 0
        for c in c0...c1 { cols |= 1 << UInt32(c) }
        for row in r0...r1 { rows |= 0xF << UInt64(4 * row) }
        for by in r0 / 4...r1 / 4 { for bx in c0 / 4...c1 / 4 { mask |= 1 << UInt32(4 * by + bx) } }
        return (mask & live, cols, rows)
    }

    /// The lanes of block `b` (lane l: column l & 3, row l >> 2 of the block) inside pair `k`'s
    /// rectangle: the block's four columns repeated on each row, and-ed with its four rows.
    @inline(__always)
    func rectMask(_ k: Int, _ b: Int) -> WideMask {
        let columns = ((cols[k] &>> UInt32(truncatingIfNeeded: (b & 3) &* 4)) & 0xF) &* 0x1111
        let lanesInRows = UInt32(truncatingIfNeeded: rows[k] &>> UInt64(truncatingIfNeeded: (b >> 2) &* 16))
        return wideMask(bits: columns & lanesInRows)
    }
}
