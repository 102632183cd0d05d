// LitSpan8 — shaded surfaces without textures (meshes), eight pixels of a span at a time.
import RenderCore
#if arch(x86_64)
import _Builtin_intrinsics.intel
#endif

extension TileRasterizer {
    /// Span of an untextured material (lit or not, with or without vertex colours), shading
    /// eight pixels per step: 1/w, the normal and the colour are evaluated from their planes
    /// per lane, then the same formula as `span` — base × colour × (ambient + diffuse ·
    /// max(0, n̂·L)) — with a Newton-refined reciprocal square root. Lanes past the span end
    /// or failing the depth test keep their old colour and depth.
    @inline(__always)
    /// - Precondition: the tile [tileX0, tileX1] is at least 8 pixels wide.
    static func litSpan8(_ s: UnsafePointer<TriangleSetup>, y: Int, from lo: Int, to hi: Int, tileX0: Int, target: RasterTarget,
                         m: UnsafePointer<MaterialState>, light: LightState) {
        #if arch(x86_64)
        typealias F8 = SIMD8<Float>
        let minX = Int(s.pointee.minX)
        let dy = Float(y - Int(s.pointee.minY))
        let w = s.pointee.invW
        let a = s.pointee.attrA, b = s.pointee.attrB, c = s.pointee.attrC
        let lane = F8(0, 1, 2, 3, 4, 5, 6, 7)
        let row = y &* target.width
        let base = m.pointee.baseColor
        let lit = m.pointee.lit
        let sign = s.pointee.normalSign
        let lx = light.direction.x * sign, ly = light.direction.y * sign, lz = light.direction.z * sign
        // Row constants of each plane: value = c + b·dy + a·dx.
        let iwRow = w.z + w.y * dy
        let rowC = c + b * dy
        var x = lo
        while x <= hi {
            // A window of 8 pixels: [x, x+7] inside the span, or for the last group the 8 pixels
            // ending at the span's end, kept inside the tile so no other thread owns them.
            let start = x + 7 <= hi ? x : max(tileX0, hi - 7)
            let fxs = Float(start - minX) + lane
            let d = 1 / (iwRow + w.x * fxs)
            let depthPtr = UnsafeMutableRawPointer(target.depth + (row &+ start))
            let old = depthPtr.loadUnaligned(as: F8.self)
            // Sign-bit masks: lane inside [x, hi], and d < old.
            let afterStart = (Float(x - start) - 0.5) - lane
            let beforeEnd = lane - (Float(hi - start) + 0.5)
            let pass = Self.and(Self.and(d - old, afterStart), beforeEnd)
            if _mm256_movemask_ps(pass) != 0 {
                var r = (rowC[5] + a[5] * fxs) * d * base.x
                var g = (rowC[6] + a[6] * fxs) * d * base.y
                var bl = (rowC[7] + a[7] * fxs) * d * base.z
                if lit {
                    let nx = rowC[2] + a[2] * fxs, ny = rowC[3] + a[3] * fxs, nz = rowC[4] + a[4] * fxs
                    // n/w is interpolated; the 1/w factor cancels in n̂, so normalise it directly.
                    var len2 = nx * nx
                    len2.addProduct(ny, ny); len2.addProduct(nz, nz)
                    len2 = _mm256_max_ps(len2, F8(repeating: 1e-30))
                    var inv = _mm256_rsqrt_ps(len2)
                    inv = inv * (1.5 - 0.5 * len2 * inv * inv)
                    var ndl = nx * lx
                    ndl.addProduct(ny, ly); ndl.addProduct(nz, lz)
                    // 1/w > 0 here, so the sign of n/w · L is the sign of n · L.
                    let k = light.ambient + light.diffuse * _mm256_max_ps(ndl * inv, F8(repeating: 0))
                    r *= k; g *= k; bl *= k
                }
                let packed = Self.pack8(r, g, bl)
                let colorPtr = UnsafeMutableRawPointer(target.color + (row &+ start))
                let oldColor = colorPtr.loadUnaligned(as: F8.self)
                colorPtr.storeBytes(of: _mm256_blendv_ps(oldColor, unsafeBitCast(packed, to: F8.self), pass), as: F8.self)
                depthPtr.storeBytes(of: _mm256_blendv_ps(old, d, pass), as: F8.self)
            }
            x = start &+ 8
        }
        #else
        span(s, y: y, from: lo, to: hi, target: target, m: m, light: light)
        #endif
    }

    #if arch(x86_64)
    /// Bitwise AND of two sign-bit masks.
    @inline(__always) static func and(_ p: SIMD8<Float>, _ q: SIMD8<Float>) -> SIMD8<Float> { _mm256_and_ps(p, q) }

    /// Eight RGB colours in 0…1 → packed RGBA8 with alpha 255 (round to nearest, clamped).
    @inline(__always) static func pack8(_ r: SIMD8<Float>, _ g: SIMD8<Float>, _ b: SIMD8<Float>) -> SIMD8<UInt32> {
        channel8(r) | channel8(g) &<< 8 | channel8(b) &<< 16 | 0xFF00_0000
    }

    /// One channel of `pack8`: clamp(v·255, 0, 255) rounded to nearest.
    @inline(__always) static func channel8(_ v: SIMD8<Float>) -> SIMD8<UInt32> {
        let c = _mm256_min_ps(_mm256_max_ps(v * 255, SIMD8<Float>(repeating: 0)), SIMD8<Float>(repeating: 255))
        return unsafeBitCast(_mm256_cvtps_epi32(c), to: SIMD8<UInt32>.self)
    }
    #endif
}
