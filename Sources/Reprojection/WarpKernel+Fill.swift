// WarpKernel+Fill — the hole fill: target pixels the forward warp did not reach take the
// farther of their neighbours that it did reach (a disocclusion shows what was behind).
import RenderCore

extension BandWork {
    /// Fills the holes (NaN depth) of band `b`'s rows. A hole takes the farther of the pixels
    /// above and below when the warp reached both (a crack or a one-pixel sliver), else the
    /// farther of its run's left and right ends, else the one of above/below that was reached,
    /// else the background at +inf. Filled pixels are marked by a negative depth while the
    /// stage runs, so that every band reads its neighbours' rows as the warp left them (whatever
    /// the other band has filled): rows inside the band get their sign back as soon as both
    /// their neighbours are done, its first and last rows in `finishBandEdges`.
    func fill(band b: Int) {
        let y0 = b &* bandRows, y1 = min(height, y0 &+ bandRows)
        var count = 0
        for y in y0..<y1 {
            count &+= fill(row: y)
            if y &- 1 > y0 { unmark(row: y &- 1) }
        }
        holes[b] = count
    }

    /// Gives the first and last row of every band their positive depth back (after `fill`).
    func finishBandEdges() {
        for b in 0..<bands {
            let y0 = b &* bandRows, y1 = min(height, y0 &+ bandRows)
            unmark(row: y0)
            if y1 &- 1 > y0 { unmark(row: y1 &- 1) }
        }
    }

    /// Fills row `y`'s holes; returns how many there were.
    private func fill(row y: Int) -> Int {
        let depth = targetDepth + y &* width, color = target + y &* width
        let up: UnsafeMutablePointer<Float>? = y > 0 ? depth - width : nil
        let down: UnsafeMutablePointer<Float>? = y &+ 1 < height ? depth + width : nil
        var count = 0, x = 0
        while x < width {
            if x &+ 8 <= width {
                let d = UnsafeRawPointer(depth + x).loadUnaligned(as: SIMD8<Float>.self)
                if !any(d .!= d) { x &+= 8; continue }
            }
            guard depth[x].isNaN else { x &+= 1; continue }
            let x0 = x
            while x < width && depth[x].isNaN { x &+= 1 }
            count &+= x &- x0
            // The run's ends (reached by the warp: nothing in this row is filled beyond x0 yet).
            var sideColor = background, sideDepth = Float.infinity, hasSide = false
            if x0 > 0 { sideColor = color[x0 &- 1]; sideDepth = depth[x0 &- 1]; hasSide = true }
            if x < width && (!hasSide || depth[x] > sideDepth) { sideColor = color[x]; sideDepth = depth[x]; hasSide = true }
            for p in x0..<x {
                var c = sideColor, d = sideDepth
                let a: Float = up.map { $0[p] } ?? .nan, bl: Float = down.map { $0[p] } ?? .nan
                if a > 0 && bl > 0 {
                    if a >= bl { c = color[p &- width]; d = a } else { c = color[p &+ width]; d = bl }
                } else if !hasSide {
                    if a > 0 { c = color[p &- width]; d = a } else if bl > 0 { c = color[p &+ width]; d = bl }
                }
                color[p] = c
                depth[p] = -d
            }
        }
        return count
    }

    /// Makes row `y`'s depths positive again.
    private func unmark(row y: Int) {
        let depth = targetDepth + y &* width
        var x = 0
        while x &+ 8 <= width {
            let p = UnsafeMutableRawPointer(depth + x)
            let d = p.loadUnaligned(as: SIMD8<Float>.self)
            p.storeBytes(of: d.replacing(with: -d, where: d .< 0), as: SIMD8<Float>.self)
            x &+= 8
        }
        while x < width { if depth[x] < 0 { depth[x] = -depth[x] }; x &+= 1 }
    }
}
