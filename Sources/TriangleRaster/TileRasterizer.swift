import RenderCore

/// Where a draw writes: raw colour/depth pointers of a `Framebuffer`.
struct RasterTarget: @unchecked Sendable {
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
        for y in ys...ye {
            var lo = xs, hi = xe
            for i in 0..<3 {
                let e = rowEdge[i], sx = stepX[i]
                if sx > 0 {
                    if e < 0 { lo = max(lo, xs + Int((-e + sx - 1) / sx)) }
                } else if sx < 0 {
                    if e < 0 { hi = -1; break }
                    hi = min(hi, xs + Int(e / -sx))
                } else if e < 0 {
                    hi = -1; break
                }
            }
            if lo <= hi {
                span(s, y: y, from: lo, to: hi, target: target, m: m, light: light)
            }
            rowEdge &+= stepY
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
                    let level = TextureSampler.level(rho2: rho2, levelCount: m.pointee.levelCount)
                    c *= TextureSampler.sample(texels, m.pointee.levels![level], u: u, v: t)
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
