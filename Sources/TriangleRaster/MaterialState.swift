import RenderCore

/// A material flattened for the inner loop: no references, only raw pointers into
/// `Texture` storage that the draw call keeps alive.
struct MaterialState {
    var baseColor: SIMD4<Float>
    var lit: Bool
    var texels: UnsafeMutablePointer<UInt32>?
    var levels: UnsafeMutablePointer<Texture.Level>?
    var levelCount: Int32
    var width: Float
    var height: Float
    /// Textured, white, drawn without vertex colours: the picture fast path applies when the
    /// material is unlit or the triangle is flat (one lighting factor for all its pixels).
    var pictureTextured: Bool

    init(_ m: TriangleMesh.Material, hasVertexColors: Bool) {
        baseColor = m.baseColor
        lit = m.lit
        if let t = m.texture {
            texels = t.texels; levels = t.levelTable; levelCount = Int32(t.levels.count)
            width = Float(t.width); height = Float(t.height)
        } else {
            texels = nil; levels = nil; levelCount = 0; width = 1; height = 1
        }
        pictureTextured = texels != nil && !hasVertexColors && m.baseColor == SIMD4<Float>(1, 1, 1, 1)
    }
}

/// Bilinear texture sampling from one mip level, repeating outside [0, 1].
enum TextureSampler {
    /// Samples level `level` at (u, v) (v up) and returns RGBA in 0…1.
    @inline(__always)
    static func sample(_ texels: UnsafeMutablePointer<UInt32>, _ l: Texture.Level, u: Float, v: Float) -> SIMD4<Float> {
        let w = l.width, h = l.height
        let fx = (u - u.rounded(.down)) * Float(w) - 0.5
        let fy = (1 - (v - v.rounded(.down))) * Float(h) - 0.5
        let x0f = fx.rounded(.down), y0f = fy.rounded(.down)
        let tx = fx - x0f, ty = fy - y0f
        var x0 = Int(Int32(truncatingIfNeeded: Int64(x0f))), y0 = Int(Int32(truncatingIfNeeded: Int64(y0f)))
        if x0 < 0 { x0 += w }; if y0 < 0 { y0 += h }
        if x0 >= w { x0 -= w }; if y0 >= h { y0 -= h }
        var x1 = x0 &+ 1, y1 = y0 &+ 1
        if x1 >= w { x1 = 0 }; if y1 >= h { y1 = 0 }
        let base = texels + l.offset
        let r0 = base + y0 &* l.stride, r1 = base + y1 &* l.stride
        let a = unpack(r0[x0]), b = unpack(r0[x1]), c = unpack(r1[x0]), d = unpack(r1[x1])
        let top = a + (b - a) * tx
        let bottom = c + (d - c) * tx
        return (top + (bottom - top) * ty) * (1 / 255)
    }

    @inline(__always) static func unpack(_ p: UInt32) -> SIMD4<Float> {
        SIMD4<Float>(SIMD4<Int32>(truncatingIfNeeded: SIMD4<UInt32>(p, p >> 8, p >> 16, p >> 24) & 0xFF))
    }

    /// Bilinear sample of packed RGBA8 texels in integer arithmetic (8-bit weights, two
    /// channels per 32-bit lane): the fast path for pictures. Same addressing as `sample`.
    @inline(__always)
    static func samplePacked(_ texels: UnsafeMutablePointer<UInt32>, offset: Int, width w: Int32, height h: Int32,
                             fw: Float, fh: Float, u: Float, v: Float) -> UInt32 {
        let fx = (u - u.rounded(.down)) * fw - 0.5
        let fy = (1 - (v - v.rounded(.down))) * fh - 0.5
        let iy = Int32((fy * 256).rounded(.down))
        let ixf = Int32((fx * 256).rounded(.down))
        var x0 = ixf >> 8, y0 = iy >> 8
        let tx = UInt32(truncatingIfNeeded: ixf & 255), ty = UInt32(truncatingIfNeeded: iy & 255)
        if x0 < 0 { x0 &+= w }
        if y0 < 0 { y0 &+= h }
        if x0 >= w { x0 &-= w }
        if y0 >= h { y0 &-= h }
        // The level's padding column and row hold the wrapped neighbours: x0 + 1 and y0 + 1 are in memory.
        let stride = Int(w) + 1
        let r0 = texels + offset + Int(y0) * stride + Int(x0), r1 = r0 + stride
        let top = lerpPacked(r0[0], r0[1], tx)
        let bottom = lerpPacked(r1[0], r1[1], tx)
        return lerpPacked(top, bottom, ty)
    }

    /// Every colour channel of a packed RGBA8 value times `k`/256 (k in 0…256); alpha is set to 255.
    @inline(__always) static func scalePacked(_ p: UInt32, _ k: UInt32) -> UInt32 {
        let rb = ((p & 0x00FF_00FF) &* k) >> 8 & 0x00FF_00FF
        let g = ((p & 0x0000_FF00) &* k) >> 8 & 0x0000_FF00
        return rb | g | 0xFF00_0000
    }

    /// Per-channel (1 − t/256)·p + (t/256)·q of two packed RGBA8 values, t in 0…255.
    @inline(__always) static func lerpPacked(_ p: UInt32, _ q: UInt32, _ t: UInt32) -> UInt32 {
        let s = 256 &- t
        let rb = ((p & 0x00FF_00FF) &* s &+ (q & 0x00FF_00FF) &* t) >> 8 & 0x00FF_00FF
        let ga = ((p >> 8) & 0x00FF_00FF) &* s &+ ((q >> 8) & 0x00FF_00FF) &* t
        return rb | (ga & 0xFF00_FF00)
    }

    /// Mip level for a footprint whose larger squared texel-space derivative length is `rho2`
    /// (nearest level, as GL_LINEAR_MIPMAP_NEAREST): round(½·log2 rho2), clamped.
    @inline(__always) static func level(rho2: Float, levelCount: Int32) -> Int {
        guard rho2 > 1 else { return 0 }
        let e = Int32(bitPattern: rho2.bitPattern >> 23) - 127 // floor(log2 rho2)
        return Int(min((e + 1) >> 1, levelCount - 1))
    }
}
