// SplatLOD — LevelErrors: how much each level of a leaf loses against its finest level, measured
// in small orthographic pictures of the leaf from four directions at five sizes
// (`LevelErrorTable`) — so a splat budget can go where a coarser level would lose the most.
import Foundation
import RenderCore
import SceneIO

enum LevelErrors {
    /// Directions all round (every 12th of `ViewFittedColour`'s 48): 8 gave the same choices.
    static let directions = Array(stride(from: 0, to: ViewFittedColour.directionCount, by: 12))

    /// The table of a leaf whose levels (0 = finest) are `levels` and whose box is `box`: for each
    /// size S of `LevelErrorTable.sizes`, the box's diagonal spans S pixels; each level is drawn
    /// from every direction (`picture`) and compared with level 0's picture.
    static func table(_ levels: [[GaussianMoments]], box: Bounds) -> LevelErrorTable? {
        guard let finest = levels.first, !finest.isEmpty, !box.isEmpty else { return nil }
        let mid = (box.min + box.max) * 0.5, centre = SIMD3<Double>(Double(mid.x), Double(mid.y), Double(mid.z))
        let diagonal = max(Double((box.max - box.min).length), 1e-12)
        // Each level seen from each direction, once for every size.
        let seen = levels.map { level in directions.map { Projection(level, direction: $0, centre: centre) } }
        var values = [Float](repeating: 0, count: LevelErrorTable.sizes.count * levels.count)
        for (s, size) in LevelErrorTable.sizes.enumerated() {
            let n = Int(size), pixel = Float(diagonal / Double(size))
            let references = seen[0].map { picture($0, pixel: pixel, size: n) }
            let covered = references.reduce(0) { $0 + $1.reduce(0) { $0 + ($1.w > 0.05 ? 1 : 0) } }
            guard covered > 0 else { continue }
            for l in 1..<levels.count {
                var sum: Float = 0
                for k in directions.indices {
                    let image = picture(seen[l][k], pixel: pixel, size: n), reference = references[k]
                    for p in image.indices { let d = image[p] - reference[p]; sum += (d * d).sum() }
                }
                values[s * levels.count + l] = sum / Float(covered)
            }
        }
        return LevelErrorTable(values: values, levels: levels.count)
    }

    /// Splats seen along `ViewFittedColour.directions[j]`, orthographic, nearest first: centres on
    /// the plane across the direction (model units from `centre`), the 2-D covariance there, the
    /// colour of SH for that direction, and the opacity.
    struct Projection {
        var x: [Float] = [], y: [Float] = []
        var xx: [Float] = [], xy: [Float] = [], yy: [Float] = []
        var rgb: [SIMD3<Float>] = [], opacity: [Float] = []

        init(_ splats: [GaussianMoments], direction j: Int, centre: SIMD3<Double>) {
            let d = ViewFittedColour.directions[j], (u, w) = ViewFittedColour.across[j]
            let depth = splats.map { ($0.mean * d).sum() }
            let basis = Array(ViewFittedColour.basisTable[(j * 16)..<(j * 16 + 16)])
            for i in splats.indices.sorted(by: { (depth[$0], $0) < (depth[$1], $1) }) {
                let g = splats[i]
                let (cxx, cxy, cxz, cyy, cyz, czz) = g.cov
                func form(_ p: SIMD3<Double>, _ r: SIMD3<Double>) -> Float {
                    Float(p.x * (cxx * r.x + cxy * r.y + cxz * r.z) + p.y * (cxy * r.x + cyy * r.y + cyz * r.z)
                          + p.z * (cxz * r.x + cyz * r.y + czz * r.z))
                }
                let rel = g.mean - centre
                x.append(Float((rel * u).sum())); y.append(Float((rel * w).sum()))
                xx.append(form(u, u)); xy.append(form(u, w)); yy.append(form(w, w))
                var colour = SIMD3<Double>(repeating: 0.5)
                for q in 0..<min(g.colour.count / 3, 16) {
                    colour += basis[q] * SIMD3(Double(g.colour[q * 3]), Double(g.colour[q * 3 + 1]), Double(g.colour[q * 3 + 2]))
                }
                rgb.append(SIMD3(Float(max(colour.x, 0)), Float(max(colour.y, 0)), Float(max(colour.z, 0))))
                opacity.append(Float(g.opacity))
            }
        }

        /// Splat `i` in a `size`² picture of `pixel` model units: its centre (pixels), the
        /// pixels of its 3σ box, and the conic of its covariance with the 0.3 px² low-pass
        /// (power = ia·dx² + ib·dx·dy + ic·dy²); nil when it is degenerate or outside.
        func footprint(_ i: Int, pixel: Float, size n: Int)
            -> (cx: Float, cy: Float, x0: Int, x1: Int, y0: Int, y1: Int, ia: Float, ib: Float, ic: Float)? {
            let scale = 1 / pixel, area = scale * scale, half = Float(n) / 2
            let a = xx[i] * area + 0.3, b = xy[i] * area, c = yy[i] * area + 0.3
            let det = a * c - b * b
            guard det > 1e-12 else { return nil }
            let cx = x[i] * scale + half, cy = y[i] * scale + half
            let rx = 3 * a.squareRoot(), ry = 3 * c.squareRoot()
            guard cx + rx >= 0, cy + ry >= 0, cx - rx < Float(n), cy - ry < Float(n) else { return nil }
            return (cx, cy, max(0, Int(cx - rx)), min(n - 1, Int(cx + rx)), max(0, Int(cy - ry)), min(n - 1, Int(cy + ry)),
                    -0.5 * c / det, b / det, -0.5 * a / det)
        }
    }

    /// `seen` drawn `size` × `size` pixels of `pixel` model units around the centre: per pixel
    /// premultiplied RGB and coverage, composited front to back as the renderer does (0.3 px²
    /// low-pass, α ≤ 0.99, nothing under 1/255). Eight pixels of a row at a time; the same as
    /// `pictureByPixel` to float rounding.
    static func picture(_ seen: Projection, pixel: Float, size n: Int) -> [SIMD4<Float>] {
        let stride = n + 8   // rows padded so a run of eight starting in the row stays in it
        var planes = [Float](repeating: 0, count: 4 * stride * n)
        var transmittance = [Float](repeating: 1, count: stride * n)
        let lanes = SIMD8<Float>(0, 1, 2, 3, 4, 5, 6, 7)
        planes.withUnsafeMutableBufferPointer { planes in
            transmittance.withUnsafeMutableBufferPointer { tb in
                let red = UnsafeMutableRawPointer(planes.baseAddress!), plane = stride * n * 4
                let t = UnsafeMutableRawPointer(tb.baseAddress!)
                for i in seen.x.indices {
                    guard let (cx, cy, x0, x1, y0, y1, ia, ib, ic) = seen.footprint(i, pixel: pixel, size: n) else { continue }
                    let opacity = seen.opacity[i], rgb = seen.rgb[i]
                    let last = SIMD8<Float>(repeating: Float(x1 - x0))
                    for y in y0...y1 {
                        let dy = Float(y) + 0.5 - cy
                        let linear = ib * dy, constant = ic * dy * dy
                        var x = x0
                        while x <= x1 {
                            let run = lanes + Float(x - x0)
                            let dx = (lanes + (Float(x) + 0.5)) - cx   // exact before the subtraction, as pictureByPixel
                            let power = (ia * dx + linear) * dx + constant
                            let o = (y * stride + x) * 4
                            let tv = t.loadUnaligned(fromByteOffset: o, as: SIMD8<Float>.self)
                            let inside = power .> -5.55
                            var alpha = opacity * fastExp(power.replacing(with: -5.55, where: .!inside))
                            alpha.replace(with: 0.99, where: alpha .> 0.99)
                            let keep = inside .& (run .<= last) .& (alpha .>= 1 / 255) .& (tv .> 1e-4)
                            alpha = alpha.replacing(with: 0, where: .!keep)
                            let w = tv * alpha
                            @inline(__always) func add(_ k: Int, _ value: SIMD8<Float>) {
                                let p = red + k * plane + o
                                p.storeBytes(of: p.loadUnaligned(as: SIMD8<Float>.self) + value, as: SIMD8<Float>.self)
                            }
                            add(0, w * rgb.x); add(1, w * rgb.y); add(2, w * rgb.z); add(3, w)
                            t.storeBytes(of: tv * (1 - alpha), toByteOffset: o, as: SIMD8<Float>.self)
                            x += 8
                        }
                    }
                }
            }
        }
        var image = [SIMD4<Float>](repeating: .zero, count: n * n)
        let plane = stride * n
        for y in 0..<n { for x in 0..<n {
            let q = y * stride + x
            image[y * n + x] = SIMD4(planes[q], planes[plane + q], planes[2 * plane + q], planes[3 * plane + q])
        } }
        return image
    }

    /// `picture` one pixel at a time: the test's reference.
    static func pictureByPixel(_ seen: Projection, pixel: Float, size n: Int) -> [SIMD4<Float>] {
        var image = [SIMD4<Float>](repeating: .zero, count: n * n)
        var transmittance = [Float](repeating: 1, count: n * n)
        for i in seen.x.indices {
            guard let (cx, cy, x0, x1, y0, y1, ia, ib, ic) = seen.footprint(i, pixel: pixel, size: n) else { continue }
            let opacity = seen.opacity[i], rgb = seen.rgb[i]
            for y in y0...y1 {
                let dy = Float(y) + 0.5 - cy
                let linear = ib * dy, constant = ic * dy * dy
                for x in x0...x1 {
                    let dx = Float(x) + 0.5 - cx
                    let power = (ia * dx + linear) * dx + constant
                    guard power > -5.55 else { continue }   // α < 1/255 beyond
                    let alpha = min(0.99, opacity * fastExp(power))
                    let p = y * n + x, t = transmittance[p]
                    guard alpha >= 1 / 255, t > 1e-4 else { continue }
                    image[p] += SIMD4(rgb * (t * alpha), t * alpha)
                    transmittance[p] = t * (1 - alpha)
                }
            }
        }
        return image
    }

    /// e^x for x in [−5.55, 0] within 0.1 % (2^(x·log₂e): the integer part in the exponent bits, the
    /// fraction by a cubic), for pictures that only need to be compared.
    @inline(__always) static func fastExp(_ x: Float) -> Float {
        let t = x * 1.442695, i = t.rounded(.down), f = t - i
        let p = 1 + f * (0.6951786 + f * (0.2262441 + f * 0.0785774))
        return Float(bitPattern: UInt32(bitPattern: Int32(i) + 127) << 23) * p
    }

    /// `fastExp` eight at a time (x ≥ −126; the exponent made with the 1.5·2²³ trick, not a
    /// vector float → int conversion, which Swift does lane by lane).
    @inline(__always) static func fastExp(_ x: SIMD8<Float>) -> SIMD8<Float> {
        let t = x * 1.442695, i = t.rounded(.down), f = t - i
        let p = 1 + f * (0.6951786 + f * (0.2262441 + f * 0.0785774))
        let biased = unsafeBitCast(i + (127 + 12_582_912), to: SIMD8<Int32>.self) &- 0x4B40_0000
        return unsafeBitCast(biased &<< 23, to: SIMD8<Float>.self) * p
    }
}
