// BlockChunk — one chunk of a tile's sorted pairs as the block kernel's blend loops read it
// (SplatRenderer+BlockBlend.swift): per pair its record slot and its rectangle cut to the tile
// as pixel-column and pixel-row bits, so that a block finds the lanes inside a splat's
// rectangle with a few integer operations instead of four float comparisons per splat.

/// A chunk of sub-binned pairs (index k < `BlockBlendScratch.chunkPairs`): slot `slots[k]` in
/// `records`, tile-relative columns `cols[k]` (bit c: pixel column c of the tile is inside the
/// rectangle) and rows `rows[k]` (bits 4r…4r+3 all set when pixel row r of the tile is).
struct BlockChunk {
    let records: UnsafeMutablePointer<ProjectedSplat>
    let slots: UnsafeMutablePointer<UInt32>
    let cols: UnsafeMutablePointer<UInt32>
    let rows: UnsafeMutablePointer<UInt64>

    /// The rectangle's column bits (bit c) and row nibbles (nibble r) for inclusive tile-relative
    /// bounds 0 ≤ `c0` ≤ `c1` ≤ 15 and 0 ≤ `r0` ≤ `r1` ≤ 15.
    @inline(__always)
    static func bits(c0: Int, c1: Int, r0: Int, r1: Int) -> (cols: UInt32, rows: UInt64) {
        let cols = (UInt32(0xFFFF) &<< UInt32(truncatingIfNeeded: c0)) & (UInt32(0xFFFF) &>> UInt32(truncatingIfNeeded: 15 &- c1))
        let rows = (UInt64.max &<< UInt64(truncatingIfNeeded: 4 &* r0)) & (UInt64.max &>> UInt64(truncatingIfNeeded: 60 &- 4 &* r1))
        return (cols, rows)
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
