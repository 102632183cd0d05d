// TargetRowBounds — per warp, the range of target rows each block of a source row can land
// in (from the block's depth range), which the scatter's bands use to skip the blocks that
// cannot reach them. Eight source rows at a time in SIMD lanes, groups of 8 rows shared by the
// scatter stage's workers before they start on bands.

/// The target rows each source row block can reach, for one mapping.
struct TargetRowBounds {
    let mapping: WarpMapping
    let sourceWidth: Int, sourceHeight: Int, targetHeight: Int
    /// Per source row, per block: (least positive finite depth, greatest finite depth, has
    /// +inf, has finite) (`RowDepthWork.out`).
    let depths: UnsafePointer<SIMD4<Float>>
    /// Per source row, per block: written, first and last target row (first > last: none).
    let rows: UnsafeMutablePointer<SIMD2<Int32>>
    /// Per source row: written, the first and last target row of any of its blocks (first >
    /// last: none), so that a band skips most rows with one test.
    let rowSpans: UnsafeMutablePointer<SIMD2<Int32>>

    /// The kernel's rows differ from the bounds' by float rounding only (~10⁻³ pixel): a margin
    /// of 1/16 pixel, not a whole row, so that a row landing on its own row (a sideways move,
    /// the background) is not also scattered by the band above or below it.
    static let margin: Float = 1.0 / 16

    /// Writes `rows` for every source row block. For a fixed depth the target row is monotonic
    /// along the row, and for a fixed column monotonic in the depth, so the extremes lie at the
    /// corners (the block's first and last column × least and greatest depth, and +inf); a
    /// corner at or behind the target eye makes the range the whole target.
    func run() {
        for g in 0..<groups { run(group: g) }
    }

    /// Groups of 8 source rows (`run(group:)` writes one).
    var groups: Int { (sourceHeight + 7) / 8 }

    /// Writes `rows` and `rowSpans` for source rows 8·`g`…8·`g` + 7 (groups are independent).
    func run(group g: Int) {
        let blocks = WarpKernel.blocks(width: sourceWidth), m = mapping
        let lanes = SIMD8<Float>(0, 1, 2, 3, 4, 5, 6, 7)
        let near = SIMD8<Float>(repeating: WarpKernel.nearestDepth), zero = SIMD8<Float>(repeating: 0)
        let inf = SIMD8<Float>(repeating: .infinity)
        let j0 = g &* 8
        do {
            let n = min(8, sourceHeight &- j0)
            let fj = lanes + Float(j0)
            for block in 0..<blocks {
                var least = zero, greatest = zero, infinite = zero, finite = zero
                for k in 0..<n {
                    let r = depths[(j0 &+ k) &* blocks &+ block]
                    least[k] = r.x; greatest[k] = r.y; infinite[k] = r.z; finite[k] = r.w
                }
                let hasFinite = finite .> zero, hasInfinite = infinite .> zero
                var lo = inf, hi = -inf
                var whole = SIMDMask<SIMD8<Int32>>(repeating: false)
                let first = block &* WarpKernel.blockColumns
                let lastColumn = min(sourceWidth, first &+ WarpKernel.blockColumns) &- 1
                for side in 0..<2 {
                    let fi = Float(side == 0 ? first : lastColumn)
                    // origin + perColumn·i + perRow·j, as `WarpMapping.homogeneous`.
                    let dy = SIMD8(repeating: m.origin.y + m.perColumn.y * fi) + SIMD8(repeating: m.perRow.y) * fj
                    let dw = SIMD8(repeating: m.origin.z + m.perColumn.z * fi) + SIMD8(repeating: m.perRow.z) * fj
                    let oy = SIMD8(repeating: m.offset.y), ow = SIMD8(repeating: m.offset.z)
                    @inline(__always) func corner(_ y: SIMD8<Float>, _ w: SIMD8<Float>, _ included: SIMDMask<SIMD8<Int32>>) {
                        whole = whole .| (included .& .!(w .> near))
                        let t = y / w
                        lo.replace(with: t, where: included .& (t .< lo))
                        hi.replace(with: t, where: included .& (t .> hi))
                    }
                    corner(dy * least + oy, dw * least + ow, hasFinite)
                    corner(dy * greatest + oy, dw * greatest + ow, hasFinite)
                    corner(dy, dw, hasInfinite)
                }
                let height = Float(targetHeight), last = Int32(truncatingIfNeeded: targetHeight &- 1)
                for k in 0..<n {
                    let out = rows + ((j0 &+ k) &* blocks &+ block)
                    let l = lo[k], h = hi[k]
                    if whole[k] {
                        out.pointee = SIMD2(0, last)
                    } else if l > h || !(l < height + 1) || !(h > -1) {
                        out.pointee = SIMD2(1, 0)
                    } else {
                        out.pointee = SIMD2(Int32(max(-1, (l - Self.margin).rounded(.down))),
                                            Int32(min(Float(last) + 1, (h + Self.margin).rounded(.down))))
                    }
                }
            }
            for k in 0..<n {
                let r = rows + (j0 &+ k) &* blocks
                var span = SIMD2<Int32>(Int32.max, Int32.min)
                for block in 0..<blocks where r[block].x <= r[block].y {
                    span.x = min(span.x, r[block].x); span.y = max(span.y, r[block].y)
                }
                rowSpans[j0 &+ k] = span
            }
        }
    }
}
