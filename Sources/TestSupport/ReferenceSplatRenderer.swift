// ReferenceSplatRenderer — the splat image contract, written out slowly and plainly.
//
// The 3DGS reference rasterizer's forward pass (diff-gaussian-rasterization) for a general,
// possibly off-axis OpenGL camera, one step per numbered paragraph of the contract. No
// tiles, no SIMD, no threads: per pixel, loop over the depth-sorted splats whose footprint
// square contains it. `SplatRenderer` must match it (PSNR ≥ 50 dB, max error ≤ 2).
import Foundation
import RenderCore

/// The slow reference splat renderer (for tests).
public enum ReferenceSplatRenderer {
    /// One splat after projection (image coordinates: x right, y down, pixel centres +0.5).
    public struct Projected: Sendable {
        /// Index in the cloud.
        public var index: Int
        /// Camera-space depth d = −t.z (metres).
        public var depth: Float
        /// Projected mean (pixels).
        public var mean: SIMD2<Float>
        /// 2D covariance (a, b, c) = [[a, b], [b, c]] including the +0.3 dilation (pixels²).
        public var cov2D: SIMD3<Float>
        /// Inverse covariance (A, B, C) = (c, −b, a)/det.
        public var conic: SIMD3<Float>
        /// Half-size of the footprint square (pixels), ceil(3·sqrt(λmax)).
        public var radius: Float
        /// Opacity (after anti-aliasing compensation when enabled).
        public var opacity: Float
        /// Colour from SH, clamped at ≥ 0 only.
        public var color: SIMD3<Float>

        /// True when the pixel (i, j) — centre (i + 0.5, j + 0.5) — lies in the footprint square.
        public func touches(_ i: Int, _ j: Int) -> Bool {
            abs(Float(i) + 0.5 - mean.x) <= radius && abs(Float(j) + 0.5 - mean.y) <= radius
        }
    }

    // SH constants (forward.cu).
    static let c0: Float = 0.28209479177387814
    static let c1: Float = 0.4886025119029199
    static let c2: [Float] = [1.0925484305920792, -1.0925484305920792, 0.31539156525252005,
                              -1.0925484305920792, 0.5462742152960396]
    static let c3: [Float] = [-0.5900435899266435, 2.890611442640554, -0.4570457994644658, 0.3731763325901154,
                              -0.4570457994644658, 1.445305721320277, -0.5900435899266435]

    /// Colour of splat `i` seen along the unit direction `dir` (step 6), before clamping.
    public static func shColor(_ cloud: SplatCloud, _ i: Int, direction dir: SIMD3<Float>) -> SIMD3<Float> {
        let nRest = cloud.shRestCount
        func sh(_ k: Int) -> SIMD3<Float> {  // coefficient k (0 = dc)
            if k == 0 { return cloud.dc[i] }
            let base = (i * nRest + (k - 1)) * 3
            return SIMD3(cloud.shRest[base], cloud.shRest[base + 1], cloud.shRest[base + 2])
        }
        let deg = min(3, cloud.shDegree)   // degree 4: bands 0–3 (3DGS reference), coefficients 0…14 of nRest
        var result = c0 * sh(0)
        if deg > 0 {
            let x = dir.x, y = dir.y, z = dir.z
            result = result - c1 * y * sh(1) + c1 * z * sh(2) - c1 * x * sh(3)
            if deg > 1 {
                let xx = x * x, yy = y * y, zz = z * z, xy = x * y, yz = y * z, xz = x * z
                result = result + c2[0] * xy * sh(4) + c2[1] * yz * sh(5) + c2[2] * (2 * zz - xx - yy) * sh(6)
                    + c2[3] * xz * sh(7) + c2[4] * (xx - yy) * sh(8)
                if deg > 2 {
                    result = result
                        + c3[0] * y * (3 * xx - yy) * sh(9)
                        + c3[1] * xy * z * sh(10)
                        + c3[2] * y * (4 * zz - xx - yy) * sh(11)
                        + c3[3] * z * (2 * zz - 3 * xx - 3 * yy) * sh(12)
                        + c3[4] * x * (4 * zz - xx - yy) * sh(13)
                        + c3[5] * z * (xx - yy) * sh(14)
                        + c3[6] * x * (xx - 3 * yy) * sh(15)
                }
            }
        }
        return result + 0.5
    }

    /// A 3×3 matrix as rows, for clarity.
    typealias M3 = (SIMD3<Float>, SIMD3<Float>, SIMD3<Float>)
    static func mul(_ a: M3, _ b: M3) -> M3 {
        let bt = transpose(b)
        func row(_ r: SIMD3<Float>) -> SIMD3<Float> { SIMD3((r * bt.0).sum(), (r * bt.1).sum(), (r * bt.2).sum()) }
        return (row(a.0), row(a.1), row(a.2))
    }
    static func transpose(_ m: M3) -> M3 {
        (SIMD3(m.0.x, m.1.x, m.2.x), SIMD3(m.0.y, m.1.y, m.2.y), SIMD3(m.0.z, m.1.z, m.2.z))
    }

    /// Steps 1–6 for splat `i`; nil when culled (behind the near plane, det ≤ 0).
    public static func project(_ cloud: SplatCloud, _ i: Int, camera: Camera, antialias: Bool = false) -> Projected? {
        let V = camera.view, P = camera.projection
        let W = Float(camera.width), H = Float(camera.height)
        // 1. Camera-space mean, depth, near-plane cull.
        let p = cloud.positions[i]
        let t = V * SIMD4<Float>(p.x, p.y, p.z, 1)
        let d = -t.z
        if d <= camera.near { return nil }
        // 2. Intrinsics and projected mean.
        let fx = W / 2 * P[0, 0], cx = W / 2 * (1 - P[0, 2])
        let fy = H / 2 * P[1, 1], cy = H / 2 * (1 + P[1, 2])
        let u = t.x, v = -t.y
        let mean = SIMD2<Float>(fx * u / d + cx, fy * v / d + cy)
        // 3. World covariance Σ = R·S·Sᵀ·Rᵀ, and in the camera frame Σc = Wc·Σ·Wcᵀ.
        let q = cloud.rotations[i].normalized
        let (rc0, rc1, rc2) = q.rotationColumns
        let R: M3 = (SIMD3(rc0.x, rc1.x, rc2.x), SIMD3(rc0.y, rc1.y, rc2.y), SIMD3(rc0.z, rc1.z, rc2.z))
        let s = cloud.scales[i]
        let S: M3 = (SIMD3(s.x, 0, 0), SIMD3(0, s.y, 0), SIMD3(0, 0, s.z))
        let RS = mul(R, S)
        let sigma = mul(RS, transpose(RS))
        let Wc: M3 = (SIMD3(V[0, 0], V[0, 1], V[0, 2]),
                      -SIMD3(V[1, 0], V[1, 1], V[1, 2]),
                      -SIMD3(V[2, 0], V[2, 1], V[2, 2]))
        let sigmaC = mul(mul(Wc, sigma), transpose(Wc))
        // 4. EWA: clamped tangent, Jacobian, cov2D = J·Σc·Jᵀ + 0.3·I.
        let tanFovX = W / (2 * fx), tanFovY = H / (2 * fy)
        let limXPos = (W - cx) / fx + 0.3 * tanFovX, limXNeg = cx / fx + 0.3 * tanFovX
        let limYPos = (H - cy) / fy + 0.3 * tanFovY, limYNeg = cy / fy + 0.3 * tanFovY
        let tx = d * min(max(u / d, -limXNeg), limXPos)
        let ty = d * min(max(v / d, -limYNeg), limYPos)
        let J: M3 = (SIMD3(fx / d, 0, -fx * tx / (d * d)), SIMD3(0, fy / d, -fy * ty / (d * d)), SIMD3(0, 0, 0))
        let cov = mul(mul(J, sigmaC), transpose(J))
        let a0 = cov.0.x, b = cov.0.y, c0 = cov.1.y
        let a = a0 + 0.3, c = c0 + 0.3
        // 5. Conic and radius.
        let det = a * c - b * b
        if !(det > 0) { return nil }
        var opacity = cloud.opacities[i]
        if antialias { opacity *= max((a0 * c0 - b * b) / det, 0).squareRoot() }
        let conic = SIMD3<Float>(c / det, -b / det, a / det)
        let mid = 0.5 * (a + c)
        let lambda = mid + max(0.1, mid * mid - det).squareRoot()
        let radius = (3 * lambda.squareRoot()).rounded(.up)
        // 6. Colour.
        let dir = (p - camera.position).normalized
        let col = shColor(cloud, i, direction: dir)
        let color = SIMD3<Float>(max(col.x, 0), max(col.y, 0), max(col.z, 0))
        return Projected(index: i, depth: d, mean: mean, cov2D: SIMD3(a, b, c), conic: conic, radius: radius,
                         opacity: opacity, color: color)
    }

    /// Renders `cloud` into `target` (sized to the camera). Without `depthTest` the output is
    /// C + T·background; with it, splats at or behind the target's depth are ignored and the
    /// result is composited over the target's colour. Depth: the depth of the splat where
    /// accumulated opacity first exceeds ½ (else the old depth, +inf without `depthTest`).
    public static func render(_ cloud: SplatCloud, camera: Camera, into target: Framebuffer,
                              depthTest: Bool = false, antialias: Bool = false) {
        if target.width != camera.width || target.height != camera.height {
            target.resize(width: camera.width, height: camera.height)
        }
        let W = camera.width, H = camera.height
        // 7. Front to back in ascending depth, ties by index.
        let splats = (0..<cloud.count).compactMap { project(cloud, $0, camera: camera, antialias: antialias) }
            .sorted { ($0.depth, $0.index) < ($1.depth, $1.index) }
        for j in 0..<H {
            let rowSplats = splats.filter { abs(Float(j) + 0.5 - $0.mean.y) <= $0.radius }
            for i in 0..<W {
                let p = j * W + i
                let existingDepth: Float = depthTest ? target.depth[p] : .infinity
                let behind: SIMD3<Float>
                if depthTest {
                    let e = PackedColor.unpack(target.color[p])
                    behind = SIMD3(e.x, e.y, e.z)
                } else {
                    behind = camera.background
                }
                var T: Float = 1
                var C = SIMD3<Float>(0, 0, 0)
                var depth = existingDepth
                let px = Float(i) + 0.5, py = Float(j) + 0.5
                for s in rowSplats where s.touches(i, j) {
                    if s.depth >= existingDepth { continue }
                    let dx = px - s.mean.x, dy = py - s.mean.y
                    let power = -0.5 * (s.conic.x * dx * dx + s.conic.z * dy * dy) - s.conic.y * dx * dy
                    if power > 0 { continue }
                    let alpha = min(0.99, s.opacity * exp(power))
                    if alpha < 1.0 / 255.0 { continue }
                    let testT = T * (1 - alpha)
                    if testT < 0.0001 { break }
                    C += s.color * alpha * T
                    if T >= 0.5 && testT < 0.5 { depth = s.depth }
                    T = testT
                }
                let out = C + T * behind
                func byte(_ x: Float) -> UInt8 { UInt8((min(max(x, 0), 1) * 255).rounded()) }
                target.color[p] = PackedColor.pack(r: byte(out.x), g: byte(out.y), b: byte(out.z))
                target.depth[p] = depth
            }
        }
    }

    /// Convenience: renders into a new framebuffer and returns it.
    public static func render(_ cloud: SplatCloud, camera: Camera, antialias: Bool = false) -> Framebuffer {
        let fb = Framebuffer(width: camera.width, height: camera.height)
        render(cloud, camera: camera, into: fb, antialias: antialias)
        return fb
    }
}
