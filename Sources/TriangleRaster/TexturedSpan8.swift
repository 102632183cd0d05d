// TexturedSpan8 — the picture fast path, eight pixels at a time (AVX2 gathers on x86_64).
import RenderCore
#if arch(x86_64)
import CSIMD
import _Builtin_intrinsics.intel
#endif

extension TileRasterizer {
    /// Picture span (texel × shade/256, no vertex colours), 8 pixels per step: 1/w, u/w, v/w stepped as vectors, one
    /// mip level per group of 8 (from the analytic derivatives at its first pixel), fixed-point
    /// bilinear filtering on packed texels (same arithmetic as `TextureSampler.samplePacked`),
    /// depth test and masked stores. The last group is a window ending at the span's end inside
    /// the tile (tiles narrower than 8 pixels finish with the scalar path).
    @inline(__always)
    static func texturedSpan8(_ s: UnsafePointer<TriangleSetup>, y: Int, from lo: Int, to hi: Int, target: RasterTarget,
                              tileX0: Int, tileX1: Int, m: UnsafePointer<MaterialState>, shade: UInt32) {
        #if arch(x86_64)
        let minX = Int(s.pointee.minX)
        let dy = Float(y - Int(s.pointee.minY))
        let w = s.pointee.invW
        let a = s.pointee.attrA, b = s.pointee.attrB, c = s.pointee.attrC
        let ua = a[0], va = a[1], ub = b[0], vb = b[1]
        let iwRow = w.z + w.y * dy, uwRow = c[0] + ub * dy, vwRow = c[1] + vb * dy
        let lane = SIMD8<Float>(0, 1, 2, 3, 4, 5, 6, 7)
        let row = y &* target.width
        let color = target.color, depth = target.depth
        let texels = m.pointee.texels!, levels = m.pointee.levels!
        let tw = m.pointee.width, th = m.pointee.height, levelCount = m.pointee.levelCount
        var x = lo
        // Windows of 8 pixels; the last one ends at the span's end and stays inside the tile
        // (pixels outside [x, hi] are masked), so no scalar tail and no pixel of another worker.
        let wide = tileX1 - tileX0 >= 7
        while wide ? x <= hi : x + 7 <= hi {
            let start = x + 7 <= hi ? x : max(tileX0, hi - 7)
            let fxs = Float(start - minX) + lane
            let iw = iwRow + w.x * fxs
            let d = 1 / iw
            let depthPtr = UnsafeMutableRawPointer(depth + (row &+ start))
            let old = depthPtr.loadUnaligned(as: SIMD8<Float>.self)
            // Sign-bit mask of d < old (exact for unequal floats; old may be +inf). Comparisons
            // that produce SIMDMask values lower to per-lane code here, so masks stay sign bits.
            let inside = _mm256_and_ps((Float(x - start) - 0.5) - lane, lane - (Float(hi - start) + 0.5))
            let pass = _mm256_and_ps(d - old, inside)
            if _mm256_movemask_ps(pass) != 0 {
                let u = (uwRow + ua * fxs) * d, v = (vwRow + va * fxs) * d
                // Mip level from the footprint at the middle of the group.
                let d0 = d[4], u0 = u[4], v0 = v[4]
                let dudx = (ua - u0 * w.x) * d0 * tw, dvdx = (va - v0 * w.x) * d0 * th
                let dudy = (ub - u0 * w.y) * d0 * tw, dvdy = (vb - v0 * w.y) * d0 * th
                let rho2 = max(dudx * dudx + dvdx * dvdx, dudy * dudy + dvdy * dvdy)
                let level = levels[TextureSampler.level(rho2: rho2, levelCount: levelCount)]
                let lw = Int32(level.width), lh = Int32(level.height)
                let fx = (u - u.rounded(.down)) * Float(level.width) - 0.5
                let fy = (1 - (v - v.rounded(.down))) * Float(level.height) - 0.5
                let ix = unsafeBitCast(_mm256_cvttps_epi32((fx * 256).rounded(.down)), to: SIMD8<Int32>.self)
                let iy = unsafeBitCast(_mm256_cvttps_epi32((fy * 256).rounded(.down)), to: SIMD8<Int32>.self)
                var x0 = ix &>> 8, y0 = iy &>> 8
                let tx = SIMD8<UInt32>(truncatingIfNeeded: ix & 255), ty = SIMD8<UInt32>(truncatingIfNeeded: iy & 255)
                // Repeat wrapping with arithmetic masks (v >> 31 is −1 for negative v); the level's
                // padding column and row make x0 + 1 and y0 + 1 valid addresses.
                x0 = x0 &+ (SIMD8(repeating: lw) & (x0 &>> 31))
                y0 = y0 &+ (SIMD8(repeating: lh) & (y0 &>> 31))
                x0 = x0 &- (SIMD8(repeating: lw) & ((lw &- 1 &- x0) &>> 31))
                y0 = y0 &- (SIMD8(repeating: lh) & ((lh &- 1 &- y0) &>> 31))
                let stride = lw &+ 1
                let i0 = y0 &* stride &+ x0, i1 = i0 &+ stride
                let base = UnsafePointer(texels + level.offset)
                let (t00, t10) = gatherPairs(base, i0)
                let (t01, t11) = gatherPairs(base, i1)
                let top = lerpPacked8(t00, t10, tx), bottom = lerpPacked8(t01, t11, tx)
                var texel = lerpPacked8(top, bottom, ty)
                if shade != 256 {
                    let k = SIMD8<UInt32>(repeating: shade)
                    texel = (((texel & 0x00FF_00FF) &* k) &>> 8 & 0x00FF_00FF) | (((texel & 0x0000_FF00) &* k) &>> 8 & 0x0000_FF00)
                }
                texel |= 0xFF00_0000
                let colorPtr = UnsafeMutableRawPointer(color + (row &+ start))
                let oldColor = colorPtr.loadUnaligned(as: SIMD8<UInt32>.self)
                let blended = _mm256_blendv_ps(unsafeBitCast(oldColor, to: SIMD8<Float>.self), unsafeBitCast(texel, to: SIMD8<Float>.self), pass)
                colorPtr.storeBytes(of: unsafeBitCast(blended, to: SIMD8<UInt32>.self), as: SIMD8<UInt32>.self)
                depthPtr.storeBytes(of: _mm256_blendv_ps(old, d, pass), as: SIMD8<Float>.self)
            }
            x = start &+ 8
        }
        if x <= hi { texturedSpan(s, y: y, from: x, to: hi, target: target, m: m, shade: shade) }
        #else
        texturedSpan(s, y: y, from: lo, to: hi, target: target, m: m, shade: shade)
        #endif
    }

    #if arch(x86_64)
    /// For eight texel indices, the texels and their right-hand neighbours (two 4-lane 64-bit gathers).
    @inline(__always) static func gatherPairs(_ base: UnsafePointer<UInt32>, _ idx: SIMD8<Int32>) -> (SIMD8<UInt32>, SIMD8<UInt32>) {
        let a = unsafeBitCast(csimd_gather_pairs_u32(base, unsafeBitCast(idx.lowHalf, to: __m128i.self)), to: SIMD8<UInt32>.self)
        let b = unsafeBitCast(csimd_gather_pairs_u32(base, unsafeBitCast(idx.highHalf, to: __m128i.self)), to: SIMD8<UInt32>.self)
        return (SIMD8(lowHalf: a.evenHalf, highHalf: b.evenHalf), SIMD8(lowHalf: a.oddHalf, highHalf: b.oddHalf))
    }

    @inline(__always) static func gather(_ base: UnsafePointer<UInt32>, _ idx: SIMD8<Int32>) -> SIMD8<UInt32> {
        unsafeBitCast(csimd_gather_u32(base, unsafeBitCast(idx, to: __m256i.self)), to: SIMD8<UInt32>.self)
    }
    #endif

    /// `TextureSampler.lerpPacked` on eight lanes.
    @inline(__always) static func lerpPacked8(_ p: SIMD8<UInt32>, _ q: SIMD8<UInt32>, _ t: SIMD8<UInt32>) -> SIMD8<UInt32> {
        let s = 256 &- t
        let rb = ((p & 0x00FF_00FF) &* s &+ (q & 0x00FF_00FF) &* t) &>> 8 & 0x00FF_00FF
        let ga = ((p &>> 8) & 0x00FF_00FF) &* s &+ ((q &>> 8) & 0x00FF_00FF) &* t
        return rb | (ga & 0xFF00_FF00)
    }
}
