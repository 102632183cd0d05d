// ReferenceTimewarp — the timewarp (Sources/Reprojection) written out pixel by pixel in double
// precision, for tests of the fast one.
import RenderCore

/// The slow, obvious timewarp: every source pixel is unprojected with the inverse of its
/// camera's view-projection matrix, projected with the target camera, and kept where it is the
/// nearest at its target pixel (ties: first in raster order); holes then take the farther of
/// the reached pixels above and below when both were reached, else the farther end of their
/// run in the row, else the reached one of above/below, else the target's background at +inf.
public enum ReferenceTimewarp {
    /// `source` (rendered with `from`) as seen by `to`: a new framebuffer of `to`'s size.
    public static func warp(_ source: Framebuffer, from: Camera, to: Camera) -> Framebuffer {
        let W = to.width, H = to.height
        var depth = [Double](repeating: .nan, count: W * H)
        var color = [UInt32](repeating: 0, count: W * H)
        let inverse = invert(multiply(matrix(from.projection), matrix(from.view)))
        let targetView = matrix(to.view), targetProjection = matrix(to.projection)
        let p22 = Double(from.projection[2, 2]), p23 = Double(from.projection[2, 3])
        for j in 0..<source.height {
            for i in 0..<source.width {
                let d = Double(source.depth[j * source.width + i])
                guard d > 0 else { continue }
                let u = 2 * (Double(i) + 0.5) / Double(source.width) - 1
                let v = 1 - 2 * (Double(j) + 0.5) / Double(source.height)
                // Clip coordinates of the pixel at depth d (w = d); at +inf, the direction they tend to.
                let clip = d.isInfinite ? [u, v, -p22, 1] : [u * d, v * d, -p22 * d + p23, d]
                let world = apply(inverse, clip)
                let camera = apply(targetView, world)
                let c = apply(targetProjection, camera)
                let targetDepth = d.isInfinite ? Double.infinity : -camera[2]
                guard c[3] > 1e-4 else { continue }
                let x = (c[0] / c[3] + 1) / 2 * Double(W), y = (1 - c[1] / c[3]) / 2 * Double(H)
                guard x >= 0, x < Double(W), y >= 0, y < Double(H) else { continue }
                let t = Int(y.rounded(.down)) * W + Int(x.rounded(.down))
                if depth[t].isNaN || targetDepth < depth[t] {
                    depth[t] = targetDepth
                    color[t] = source.color[j * source.width + i]
                }
            }
        }
        let reached = depth
        let background = PackedColor.pack(Vec4(to.background.x, to.background.y, to.background.z, 1))
        for y in 0..<H {
            var x = 0
            while x < W {
                guard reached[y * W + x].isNaN else { x += 1; continue }
                let x0 = x
                while x < W && reached[y * W + x].isNaN { x += 1 }
                var side: (UInt32, Double)?
                if x0 > 0 { side = (color[y * W + x0 - 1], reached[y * W + x0 - 1]) }
                if x < W, side == nil || reached[y * W + x] > side!.1 { side = (color[y * W + x], reached[y * W + x]) }
                for p in x0..<x {
                    func at(_ row: Int) -> (UInt32, Double)? {
                        guard row >= 0, row < H, !reached[row * W + p].isNaN else { return nil }
                        return (color[row * W + p], reached[row * W + p])
                    }
                    let a = at(y - 1), b = at(y + 1)
                    let fill: (UInt32, Double)
                    if let a, let b { fill = a.1 >= b.1 ? a : b } else if let side { fill = side } else { fill = a ?? b ?? (background, .infinity) }
                    color[y * W + p] = fill.0
                    depth[y * W + p] = fill.1
                }
            }
        }
        let out = Framebuffer(width: W, height: H)
        for k in 0..<(W * H) { out.color[k] = color[k]; out.depth[k] = Float(depth[k]) }
        return out
    }

    /// A matrix as rows of doubles.
    static func matrix(_ m: Matrix4) -> [[Double]] { (0..<4).map { r in (0..<4).map { c in Double(m[r, c]) } } }

    static func multiply(_ a: [[Double]], _ b: [[Double]]) -> [[Double]] {
        (0..<4).map { r in (0..<4).map { c in (0..<4).reduce(0) { $0 + a[r][$1] * b[$1][c] } } }
    }

    static func apply(_ m: [[Double]], _ v: [Double]) -> [Double] {
        (0..<4).map { r in (0..<4).reduce(0) { $0 + m[r][$1] * v[$1] } }
    }

    /// Gauss–Jordan elimination with partial pivoting.
    static func invert(_ m: [[Double]]) -> [[Double]] {
        var a = m.enumerated().map { r, row in row + (0..<4).map { $0 == r ? 1.0 : 0.0 } }
        for col in 0..<4 {
            let pivot = (col..<4).max { abs(a[$0][col]) < abs(a[$1][col]) }!
            a.swapAt(col, pivot)
            let p = a[col][col]
            a[col] = a[col].map { $0 / p }
            for r in 0..<4 where r != col {
                let f = a[r][col]
                a[r] = zip(a[r], a[col]).map { $0 - f * $1 }
            }
        }
        return a.map { Array($0[4...]) }
    }
}
