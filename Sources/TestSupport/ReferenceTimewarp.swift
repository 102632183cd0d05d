// ReferenceTimewarp — the timewarp (Sources/Reprojection) written out pixel by pixel in double
// precision, for tests of the fast one.
import RenderCore

/// The slow, obvious timewarp:
/// 1. the warp's depth: the source depth, except that an infinite depth within 3 pixels
///    (straight up, down, left or right) of a finite one takes the nearest (the farther of
///    those at the same distance);
/// 2. every source pixel is unprojected with the inverse of its camera's view-projection
///    matrix at that depth, projected with the target camera, and kept where it is the nearest
///    at its target pixel (ties: first in raster order);
/// 3. a kept pixel's colour is the source read bilinearly at its position plus the target
///    pixel centre's offset from where it landed, texels whose depth is more than 2 % off the
///    winner's counting as the winner's colour;
/// 4. holes take the farther of the nearest reached pixels within 4 rows above and below when
///    there are both, else the farther end of their run in the row, else the reached one of
///    above/below, else the target's background at +inf.
public enum ReferenceTimewarp {
    /// `source` (rendered with `from`) as seen by `to`: a new framebuffer of `to`'s size.
    public static func warp(_ source: Framebuffer, from: Camera, to: Camera) -> Framebuffer {
        let W = to.width, H = to.height, sw = source.width, sh = source.height
        let warpDepth = dilated(source)
        var depth = [Double](repeating: .nan, count: W * H)
        var winner = [(i: Int, j: Int, x: Double, y: Double)?](repeating: nil, count: W * H)
        let inverse = invert(multiply(matrix(from.projection), matrix(from.view)))
        let targetView = matrix(to.view), targetProjection = matrix(to.projection)
        let p22 = Double(from.projection[2, 2]), p23 = Double(from.projection[2, 3])
        for j in 0..<sh {
            for i in 0..<sw {
                let d = warpDepth[j * sw + i]
                guard d > 0 else { continue }
                let u = 2 * (Double(i) + 0.5) / Double(sw) - 1
                let v = 1 - 2 * (Double(j) + 0.5) / Double(sh)
                // Clip coordinates of the pixel at depth d (w = d); at +inf, the direction they tend to.
                let clip = d.isInfinite ? [u, v, -p22, 1] : [u * d, v * d, -p22 * d + p23, d]
                let camera = apply(targetView, apply(inverse, clip))
                let c = apply(targetProjection, camera)
                let targetDepth = d.isInfinite ? Double.infinity : -camera[2]
                guard c[3] > 1e-4 else { continue }
                let x = (c[0] / c[3] + 1) / 2 * Double(W), y = (1 - c[1] / c[3]) / 2 * Double(H)
                guard x >= 0, x < Double(W), y >= 0, y < Double(H) else { continue }
                let t = Int(y.rounded(.down)) * W + Int(x.rounded(.down))
                if depth[t].isNaN || targetDepth < depth[t] {
                    depth[t] = targetDepth
                    winner[t] = (i, j, x, y)
                }
            }
        }
        var color = [UInt32](repeating: 0, count: W * H)
        for t in 0..<(W * H) {
            guard let w = winner[t] else { continue }
            let sx = Double(w.i) + (Double(t % W) + 0.5 - w.x), sy = Double(w.j) + (Double(t / W) + 0.5 - w.y)
            color[t] = bilinear(source, warpDepth, x: sx, y: sy, own: w.j * sw + w.i)
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
                    func nearest(_ step: Int) -> (UInt32, Double)? {
                        for k in 1...4 {
                            let row = y + step * k
                            guard row >= 0, row < H else { return nil }
                            if !reached[row * W + p].isNaN { return (color[row * W + p], reached[row * W + p]) }
                        }
                        return nil
                    }
                    let a = nearest(-1), b = nearest(1)
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

    /// Step 1: the warp's depth.
    static func dilated(_ source: Framebuffer) -> [Double] {
        let sw = source.width, sh = source.height
        func at(_ i: Int, _ j: Int) -> Double? {
            guard i >= 0, i < sw, j >= 0, j < sh else { return nil }
            let d = Double(source.depth[j * sw + i])
            return d > 0 && d.isFinite ? d : nil
        }
        var out = (0..<(sw * sh)).map { Double(source.depth[$0]) }
        for j in 0..<sh {
            for i in 0..<sw where out[j * sw + i] == .infinity {
                for k in 1...3 {
                    if let d = [at(i, j - k), at(i, j + k), at(i - k, j), at(i + k, j)].compactMap({ $0 }).max() {
                        out[j * sw + i] = d
                        break
                    }
                }
            }
        }
        return out
    }

    /// `source`'s colour at (x, y) in texel units (texel centres at whole numbers), bilinear,
    /// the position clamped to the image; texels more than 2 % off pixel `own`'s depth count
    /// as `own`'s colour.
    static func bilinear(_ source: Framebuffer, _ depth: [Double], x: Double, y: Double, own: Int) -> UInt32 {
        let x = min(max(x, 0), Double(source.width - 1)), y = min(max(y, 0), Double(source.height - 1))
        let x0 = Int(x), y0 = Int(y), x1 = min(x0 + 1, source.width - 1), y1 = min(y0 + 1, source.height - 1)
        let fx = x - Double(x0), fy = y - Double(y0)
        func texel(_ i: Int, _ j: Int) -> SIMD4<Double> {
            let d = depth[j * source.width + i], o = depth[own]
            let same = d >= 0.98 * o && o >= 0.98 * d
            let c = PackedColor.channels(source.color[same ? j * source.width + i : own])
            return SIMD4(Double(c[0]), Double(c[1]), Double(c[2]), Double(c[3]))
        }
        let top = texel(x0, y0) * (1 - fx) + texel(x1, y0) * fx, bottom = texel(x0, y1) * (1 - fx) + texel(x1, y1) * fx
        let v = (top * (1 - fy) + bottom * fy).rounded(.toNearestOrEven)
        return PackedColor.pack(r: UInt8(v[0]), g: UInt8(v[1]), b: UInt8(v[2]), a: UInt8(v[3]))
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
