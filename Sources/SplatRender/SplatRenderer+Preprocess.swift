// SplatRenderer+Preprocess — stage 1: project every splat (image contract steps 1–6).
import Foundation
import RenderCore

extension SplatRenderer {
    /// Projects all splats in parallel. Workers claim fixed chunks of
    /// `SplatTunables.preprocessChunk` splats from an atomic counter (so a descheduled
    /// thread does not hold the others up); visible splats are written compacted within
    /// their chunk to `projected`, with depth bits in `keysA` and their `projected` slot in
    /// `valsA`. The runs are then packed in chunk order, so `keysA/valsA[0..<visible]`
    /// follow splat order whatever the thread count. Returns the number of visible splats.
    func preprocess(_ splats: PreparedSplats, setup: FrameSetup) -> Int {
        let n = splats.count
        let proj = projected.reserve(max(1, n))
        let keys = keysA.reserve(max(1, n)), vals = valsA.reserve(max(1, n))
        keysB.reserve(max(1, n)); valsB.reserve(max(1, n))
        let size = SplatTunables.preprocessChunk
        let chunks = (n + size - 1) / size
        let visibleCounts = chunkVisible.reserve(max(1, chunks))
        let records = splats.records, rest = splats.rest
        let restLanes = splats.restLanes, degree = splats.shDegree
        nextChunk.store(0, ordering: .relaxed)
        pool.run { _ in
            while true {
                let c = nextChunk.wrappingAdd(1, ordering: .relaxed).oldValue
                if c >= chunks { break }
                let start = c * size
                var out = start
                for i in start..<min(n, start + size) {
                    if Self.project(i, records: records, rest: rest, restLanes: restLanes, degree: degree,
                                    setup: setup, into: proj + out) {
                        keys[out] = proj[out].depth.bitPattern
                        vals[out] = UInt32(truncatingIfNeeded: out)
                        out &+= 1
                    }
                }
                visibleCounts[c] = out - start
            }
        }
        // Pack the per-chunk runs in order (chunk 0 is in place).
        var visible = 0
        for c in 0..<chunks {
            let start = c * size, count = visibleCounts[c]
            if start != visible && count > 0 {
                memmove(keys + visible, keys + start, count * MemoryLayout<UInt32>.stride)
                memmove(vals + visible, vals + start, count * MemoryLayout<UInt32>.stride)
            }
            visible += count
        }
        return visible
    }

    /// Projects splat `i`; false when culled (behind the near plane, degenerate, transparent
    /// or off-image). The stored rectangle is the contract's square ∩ the alpha ≥ 1/255 box.
    @inline(__always)
    static func project(_ i: Int, records: UnsafeMutablePointer<Float>, rest: UnsafeMutablePointer<Float16>,
                        restLanes: Int, degree: Int, setup s: FrameSetup, into out: UnsafeMutablePointer<ProjectedSplat>) -> Bool {
        let r = records + i &* PreparedSplats.stride
        let px = r[0], py = r[1], pz = r[2]
        var opacity = r[3]
        guard opacity >= SplatTunables.alphaMin else { return false }
        // 1. Camera space: u = t.x, v = −t.y, d = −t.z.
        let tx = s.v00 * px + s.v01 * py + s.v02 * pz + s.v03
        let ty = s.v10 * px + s.v11 * py + s.v12 * pz + s.v13
        let tz = s.v20 * px + s.v21 * py + s.v22 * pz + s.v23
        let d = -tz
        guard d > s.near else { return false }
        let u = tx, v = -ty
        let invD = 1 / d  // one division; the contract's u/d etc. become products (≤ 1 ulp apart)
        let ud = u * invD, vd = v * invD
        // 2. Projected mean.
        let mx = s.fx * ud + s.cx
        let my = s.fy * vd + s.cy
        // 4. EWA Jacobian with clamped tangent; T = J·Wc, Wc = diag(1, −1, −1)·V₃ₓ₃.
        let ux = d * min(max(ud, -s.limXNeg), s.limXPos)
        let vy = d * min(max(vd, -s.limYNeg), s.limYPos)
        let invD2 = invD * invD
        let j00 = s.fx * invD, j02 = -s.fx * ux * invD2
        let j11 = s.fy * invD, j12 = -s.fy * vy * invD2
        let a0 = j00 * s.v00 - j02 * s.v20, a1 = j00 * s.v01 - j02 * s.v21, a2 = j00 * s.v02 - j02 * s.v22
        let b0 = -j11 * s.v10 - j12 * s.v20, b1 = -j11 * s.v11 - j12 * s.v21, b2 = -j11 * s.v12 - j12 * s.v22
        // 3. World covariance (precomputed), cov2D = T·Σ·Tᵀ.
        let sxx = r[4], sxy = r[5], sxz = r[6], syy = r[7], syz = r[8], szz = r[9]
        let sa0 = sxx * a0 + sxy * a1 + sxz * a2
        let sa1 = sxy * a0 + syy * a1 + syz * a2
        let sa2 = sxz * a0 + syz * a1 + szz * a2
        let sb0 = sxx * b0 + sxy * b1 + sxz * b2
        let sb1 = sxy * b0 + syy * b1 + syz * b2
        let sb2 = sxz * b0 + syz * b1 + szz * b2
        let ca = a0 * sa0 + a1 * sa1 + a2 * sa2
        let cbv = b0 * sa0 + b1 * sa1 + b2 * sa2
        let ccv = b0 * sb0 + b1 * sb1 + b2 * sb2
        let a = ca + SplatTunables.covarianceDilation, b = cbv, c = ccv + SplatTunables.covarianceDilation
        // 5. Conic and radius.
        let det = a * c - b * b
        guard det > 0 else { return false }
        var tau = r[13]
        if s.antialias {
            let det0 = ca * ccv - b * b
            opacity *= max(det0 / det, 0).squareRoot()
            guard opacity >= SplatTunables.alphaMin else { return false }
            tau = PreparedSplats.alphaExponent(opacity: opacity)
        }
        let mid = 0.5 * (a + c)
        let lambda = mid + max(SplatTunables.eigenFloor, mid * mid - det).squareRoot()
        let radius = (SplatTunables.radiusSigmas * lambda.squareRoot()).rounded(.up)
        // The contract's square, tightened to the bounding box of the ellipse where
        // opacity·exp(power) ≥ 1/255 (half-extents √(2τ·a), √(2τ·c), plus a margin): the
        // pixels dropped would be skipped by the alpha test anyway, so the image is the same.
        let ex = (2 * tau * a).squareRoot() + 1e-3, ey = (2 * tau * c).squareRoot() + 1e-3
        let hx = min(radius, ex), hy = min(radius, ey)
        let x0 = (mx - hx - 0.5).rounded(.up), x1 = (mx + hx - 0.5).rounded(.down)
        let y0 = (my - hy - 0.5).rounded(.up), y1 = (my + hy - 0.5).rounded(.down)
        let wMax = Float(s.width - 1), hMax = Float(s.height - 1)
        guard x1 >= 0, y1 >= 0, x0 <= wMax, y0 <= hMax, x0 <= x1, y0 <= y1 else { return false }
        // 6. Colour: base (C0·dc + 0.5, folded in `prepare`) + higher bands.
        var cr = r[10], cg = r[11], cb = r[12]
        if restLanes > 0 {
            let dx = px - s.camX, dy = py - s.camY, dz = pz - s.camZ
            let invLen = 1 / (dx * dx + dy * dy + dz * dz).squareRoot()
            let (lo, hi) = SphericalHarmonics.restBasis8(x: dx * invLen, y: dy * invLen, z: dz * invLen, degree: degree)
            let h = UnsafeRawPointer(rest + i &* restLanes &* 3)
            @inline(__always) func lanes(_ k: Int) -> SIMD8<Float> {
                SIMD8<Float>(h.loadUnaligned(fromByteOffset: k &* 16, as: SIMD8<Float16>.self))
            }
            if restLanes == 8 {
                cr += (lanes(0) * lo).sum(); cg += (lanes(1) * lo).sum(); cb += (lanes(2) * lo).sum()
            } else {
                cr += (lanes(0) * lo).addingProduct(lanes(1), hi).sum()
                cg += (lanes(2) * lo).addingProduct(lanes(3), hi).sum()
                cb += (lanes(4) * lo).addingProduct(lanes(5), hi).sum()
            }
        }
        let invDet = 1 / det
        let log2e: Float = 1.4426950408889634  // the blender evaluates 2^power
        out.pointee = ProjectedSplat(
            mx: mx, my: my,
            ca: -0.5 * log2e * (c * invDet), cb: log2e * (b * invDet), cc: -0.5 * log2e * (a * invDet),
            opacity: opacity, r: max(cr, 0), g: max(cg, 0), b: max(cb, 0), depth: d,
            x0: Int16(max(x0, 0)), y0: Int16(max(y0, 0)),
            x1: Int16(min(x1, wMax)), y1: Int16(min(y1, hMax)))
        return true
    }
}
