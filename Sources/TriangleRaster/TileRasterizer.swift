import RenderCore

/// Where a draw writes: raw colour/depth pointers of a `Framebuffer`.
struct RasterTarget {
    let color: UnsafeMutablePointer<UInt32>
    let depth: UnsafeMutablePointer<Float>
    let width: Int
}

/// Lighting constants in the form the inner loop wants.
struct LightState {
    let direction: SIMD3<Float>
    let ambient: Float
    let diffuse: Float
}

/// Draws set-up triangles into one tile: exact span per row from the edge functions, then
/// depth test, perspective-correct attributes, texture, lighting and store per pixel.
enum TileRasterizer {
    @inline(__always)
    static func draw(_ s: UnsafePointer<TriangleSetup>, tileX0: Int, tileY0: Int, tileX1: Int, tileY1: Int,
                     target: RasterTarget, materials: UnsafePointer<MaterialState>, light: LightState) {
        let minX = Int(s.pointee.minX), minY = Int(s.pointee.minY)
        let xs = max(minX, tileX0), xe = min(Int(s.pointee.maxX), tileX1)
        let ys = max(minY, tileY0), ye = min(Int(s.pointee.maxY), tileY1)
        if xs > xe || ys > ye { return }
        let stepX = s.pointee.stepX, stepY = s.pointee.stepY
        var rowEdge = s.pointee.edge &+ stepY &* Int64(ys - minY) &+ stepX &* Int64(xs - minX)
        let m = materials + Int(s.pointee.material)
        // Pictures (and flat lit textured faces: one lighting factor) take the 8-wide path.
        var shade: UInt32 = 0
        var picture = false
        if m.pointee.pictureTextured {
            if !m.pointee.lit {
                picture = true; shade = 256
            } else if s.pointee.flatLight >= 0 {
                picture = true; shade = UInt32(min(256, max(0, (s.pointee.flatLight * 256).rounded())))
            }
        }
        let width = Int64(xe - xs)
        // Untextured materials shade 8 pixels at a time when the tile is wide enough for a window.
        let simdSpans = m.pointee.texels == nil && tileX1 - tileX0 >= 7
        for y in ys...ye {
            var lo = xs, hi = xe
            for i in 0..<3 {
                let e = rowEdge[i], sx = stepX[i]
                let eEnd = e &+ sx &* width
                if e >= 0 && eEnd >= 0 { continue }          // the whole row is inside this edge
                if e < 0 && eEnd < 0 { hi = -1; break }      // the whole row is outside
                if sx > 0 {
                    lo = max(lo, xs + Int((-e + sx - 1) / sx))
                } else {
                    hi = min(hi, xs + Int(e / -sx))
                }
            }
            if lo <= hi {
                if picture {
                    texturedSpan8(s, y: y, from: lo, to: hi, target: target, tileX0: tileX0, tileX1: tileX1, m: m, shade: shade)
                } else if simdSpans {
                    litSpan8(s, y: y, from: lo, to: hi, tileX0: tileX0, target: target, m: m, light: light)
                } else {
                    span(s, y: y, from: lo, to: hi, target: target, m: m, light: light)
                }
            }
            rowEdge &+= stepY
        }
    }

    /// The picture path, one pixel at a time (span ends; non-x86): only 1/w, u/w and v/w are
    /// stepped, the mip level is chosen once per 8 pixels, colour = texel × shade/256.
    @inline(__always)
    static func texturedSpan(_ s: UnsafePointer<TriangleSetup>, y: Int, from lo: Int, to hi: Int, target: RasterTarget,
                             m: UnsafePointer<MaterialState>, shade: UInt32) {
        let dx = Float(lo - Int(s.pointee.minX)), dy = Float(y - Int(s.pointee.minY))
        let w = s.pointee.invW
        let a = s.pointee.attrA, b = s.pointee.attrB, c = s.pointee.attrC
        let ua = a[0], va = a[1], ub = b[0], vb = b[1]
        var invW = w.z + w.x * dx + w.y * dy
        var uw = c[0] + ua * dx + ub * dy
        var vw = c[1] + va * dx + vb * dy
        let row = y &* target.width
        let color = target.color, depth = target.depth
        let texels = m.pointee.texels!, levels = m.pointee.levels!
        let tw = m.pointee.width, th = m.pointee.height, levelCount = m.pointee.levelCount
        var x = lo
        while x <= hi {
            // Mip level from the analytic derivatives at the first pixel of each group of 8.
            let d0 = 1 / invW
            let u0 = uw * d0, v0 = vw * d0
            let dudx = (ua - u0 * w.x) * d0 * tw, dvdx = (va - v0 * w.x) * d0 * th
            let dudy = (ub - u0 * w.y) * d0 * tw, dvdy = (vb - v0 * w.y) * d0 * th
            let rho2 = max(dudx * dudx + dvdx * dvdx, dudy * dudy + dvdy * dvdy)
            let level = levels[TextureSampler.level(rho2: rho2, levelCount: levelCount)]
            let lw = Int32(level.width), lh = Int32(level.height), fw = Float(level.width), fh = Float(level.height)
            let groupEnd = min(hi, x &+ 7)
            while x <= groupEnd {
                let idx = row &+ x
                let d = 1 / invW
                if d < depth[idx] {
                    depth[idx] = d
                    let texel = TextureSampler.samplePacked(texels, offset: level.offset, width: lw, height: lh,
                                                            fw: fw, fh: fh, u: uw * d, v: vw * d)
                    color[idx] = shade == 256 ? texel | 0xFF00_0000 : TextureSampler.scalePacked(texel, shade)
                }
                invW += w.x; uw += ua; vw += va
                x &+= 1
            }
        }
    }

    @inline(__always)
    static func span(_ s: UnsafePointer<TriangleSetup>, y: Int, from lo: Int, to hi: Int, target: RasterTarget,
                     m: UnsafePointer<MaterialState>, light: LightState) {
        let dx = Float(lo - Int(s.pointee.minX)), dy = Float(y - Int(s.pointee.minY))
        let w = s.pointee.invW
        let attrA = s.pointee.attrA, attrB = s.pointee.attrB
        var invW = w.z + w.x * dx + w.y * dy
        var attr = s.pointee.attrC + attrA * dx + attrB * dy
        let row = y * target.width
        let color = target.color, depth = target.depth
        let base = m.pointee.baseColor
        let lit = m.pointee.lit
        let texels = m.pointee.texels
        let sign = s.pointee.normalSign
        for x in lo...hi {
            let idx = row &+ x
            let d = 1 / invW
            if d < depth[idx] {
                depth[idx] = d
                let v = attr * d
                var c = base * SIMD4(v[5], v[6], v[7], 1)
                if let texels {
                    let u = v[0], t = v[1]
                    let tw = m.pointee.width, th = m.pointee.height
                    let dudx = (attrA[0] - u * w.x) * d * tw, dvdx = (attrA[1] - t * w.x) * d * th
                    let dudy = (attrB[0] - u * w.y) * d * tw, dvdy = (attrB[1] - t * w.y) * d * th
                    let rho2 = max(dudx * dudx + dvdx * dvdx, dudy * dudy + dvdy * dvdy)
                    let l = m.pointee.levels![TextureSampler.level(rho2: rho2, levelCount: m.pointee.levelCount)]
                    let texel = TextureSampler.samplePacked(texels, offset: l.offset, width: Int32(l.width), height: Int32(l.height),
                                                            fw: Float(l.width), fh: Float(l.height), u: u, v: t)
                    c *= TextureSampler.unpack(texel) * (1 / 255)
                }
                if lit {
                    let n = SIMD3(v[2], v[3], v[4]) * sign
                    let len2 = (n * n).sum()
                    var k = light.ambient
                    if len2 > 0 {
                        let ndl = (n * light.direction).sum()
                        if ndl > 0 { k += light.diffuse * ndl / len2.squareRoot() }
                    }
                    c *= SIMD4(k, k, k, 1)
                }
                color[idx] = pack(c)
            }
            invW += w.x
            attr += attrA
        }
    }

    /// RGB in 0…1 → packed RGBA8 with alpha 255 (round to nearest, clamped).
    @inline(__always) static func pack(_ c: SIMD4<Float>) -> UInt32 {
        var s = c * 255 + 0.5
        s = s.replacing(with: 0, where: s .< 0)
        s = s.replacing(with: 255, where: s .> 255)
        return UInt32(s.x) | UInt32(s.y) << 8 | UInt32(s.z) << 16 | 0xFF00_0000
    }
}
