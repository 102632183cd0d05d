// SplatLOD — GaussianMoments: one splat as a mean and a covariance (model space), merged with
// another by their moments, and turned back into scales and a rotation; what a merge costs.
import Foundation
import RenderCore

/// A splat's geometry and appearance in the form merging needs.
struct GaussianMoments {
    /// Centre (metres, model space).
    var mean: SIMD3<Double>
    /// Covariance Σ = R·S²·Rᵀ as xx, xy, xz, yy, yz, zz (metres²).
    var cov: (Double, Double, Double, Double, Double, Double)
    /// Opacity 0…1.
    var opacity: Double
    /// DC and higher SH coefficients (the cloud's layout: dc then rest, channel innermost).
    var colour: [Float]
    /// How many splats of the capture this one stands for (1 at level 0; a merge adds them up).
    var sourceCount = 1

    /// Splat `i` of `c`.
    init(_ c: SplatCloud, _ i: Int) {
        let p = c.positions[i], s = c.scales[i], q = c.rotations[i].normalized
        mean = SIMD3(Double(p.x), Double(p.y), Double(p.z))
        let (w, x, y, z) = (Double(q.w), Double(q.x), Double(q.y), Double(q.z))
        // Rotation matrix columns.
        let r = [[1 - 2 * (y * y + z * z), 2 * (x * y + w * z), 2 * (x * z - w * y)],
                 [2 * (x * y - w * z), 1 - 2 * (x * x + z * z), 2 * (y * z + w * x)],
                 [2 * (x * z + w * y), 2 * (y * z - w * x), 1 - 2 * (x * x + y * y)]]
        let s2 = [Double(s.x) * Double(s.x), Double(s.y) * Double(s.y), Double(s.z) * Double(s.z)]
        func e(_ a: Int, _ b: Int) -> Double { (0..<3).reduce(0) { $0 + r[$1][a] * s2[$1] * r[$1][b] } }
        cov = (e(0, 0), e(0, 1), e(0, 2), e(1, 1), e(1, 2), e(2, 2))
        opacity = Double(c.opacities[i])
        let rn = c.shRestCount * 3
        colour = [c.dc[i].x, c.dc[i].y, c.dc[i].z] + (rn > 0 ? Array(c.shRest[(i * rn)..<((i + 1) * rn)]) : [])
    }

    /// det Σ.
    var determinant: Double { Self.determinant(cov) }

    /// det of a symmetric 3×3 matrix given as xx, xy, xz, yy, yz, zz.
    static func determinant(_ m: (Double, Double, Double, Double, Double, Double)) -> Double {
        let (a, b, c, d, e, f) = m
        return a * (d * f - e * e) - b * (b * f - c * e) + c * (b * e - c * d)
    }

    /// The splat's "coverage": opacity × `area` (m²) — what merging keeps (an opaque splat twice
    /// as wide covers four times the area).
    var coverage: Double { opacity * area }

    /// The splat's area (m²), seen from any side: √(λ₁λ₂ + λ₂λ₃ + λ₃λ₁) over Σ's eigenvalues (the
    /// sum of its 2×2 principal minors) — for a flat splat its two wide axes' σ₁σ₂, where
    /// det(Σ)^⅓ would shrink with the thin axis (that measure cost 1–3 dB on the playbot).
    var area: Double {
        let (a, b, c, d, e, f) = cov
        let minors = (a * d - b * b) + (a * f - c * c) + (d * f - e * e)
        return max(minors, 1e-36).squareRoot()
    }

    /// How much more opaque a merged splat is than its pair's coverage spread over its area. With
    /// 1, the playbot's coarse levels drawn all white cover 0.3–0.8 % less of the frame than the
    /// whole capture (1.1: 0 to 0.4 %), and 1.1 gains 0.2–0.3 dB at 31,000 splats in the front
    /// and side views and 0.35–0.55 dB on the 1M room's budgets (1.05 and 1.15 within 0.1 dB of
    /// it, 1.25 loses 0.2 at 31k; close 125k −0.26).
    static let coverageGain = 1.1

    /// Most a merge of two opaque splats grows its area to keep their coverage.
    static let opaqueGrowth = 1.5

    /// What a splat weighs in a merge's moments: opacity × `area`^1.5. The larger splat of a pair
    /// weighs more than its coverage alone would give it (on the playbot's close view +0.2 to
    /// +0.5 dB per level against coverage weights, −0.3 dB with area²).
    var momentWeight: Double { opacity * area * area.squareRoot() }

    /// The single Gaussian with the `momentWeight`-weighted first and second moments of `a` and
    /// `b`; its opacity spreads their coverage over its own area (× `coverageGain`), capped by the
    /// opacity of the two stacked (1 − (1 − αa)(1 − αb)); two opaque splats' merge grows instead
    /// (see the body). Its colour is fitted to what the two show from every direction (`ViewFittedColour`).
    static func merge(_ a: GaussianMoments, _ b: GaussianMoments) -> GaussianMoments {
        let wa = max(a.momentWeight, 1e-30), wb = max(b.momentWeight, 1e-30), w = wa + wb
        var m = a
        m.mean = (a.mean * wa + b.mean * wb) / w
        let da = a.mean - m.mean, db = b.mean - m.mean
        func c(_ x: Double, _ y: Double, _ ai: Int, _ bi: Int) -> Double {
            (wa * (x + da[ai] * da[bi]) + wb * (y + db[ai] * db[bi])) / w
        }
        m.cov = (c(a.cov.0, b.cov.0, 0, 0), c(a.cov.1, b.cov.1, 0, 1), c(a.cov.2, b.cov.2, 0, 2),
                 c(a.cov.3, b.cov.3, 1, 1), c(a.cov.4, b.cov.4, 1, 2), c(a.cov.5, b.cov.5, 2, 2))
        let stacked = 1 - (1 - a.opacity) * (1 - b.opacity)
        var spread = (a.coverage + b.coverage) / m.area
        // Two opaque splats side by side cannot stack past opacity 1, and their moment-matched
        // merge covers less than the two did: keep their coverage by growing it instead (at most
        // `opaqueGrowth` × its area), or coarse levels of dense captures open holes (a 1M-splat
        // room at a 50k budget: 14.4 → 22.2 dB against the whole capture).
        if spread > 1, min(a.opacity, b.opacity) >= 0.99 {
            let g = min(spread, opaqueGrowth)
            m.cov = (m.cov.0 * g, m.cov.1 * g, m.cov.2 * g, m.cov.3 * g, m.cov.4 * g, m.cov.5 * g)
            spread = (a.coverage + b.coverage) / m.area
        }
        m.opacity = min(stacked, spread * coverageGain, 0.999)
        m.colour = ViewFittedColour.fit(a, b)
        m.sourceCount = a.sourceCount + b.sourceCount
        return m
    }

    /// Scales (σ per axis, metres) and a unit rotation with R·diag(σ²)·Rᵀ = Σ (Jacobi eigenvalues).
    func scaleAndRotation() -> (Vec3, Quaternion) {
        var a = [[cov.0, cov.1, cov.2], [cov.1, cov.3, cov.4], [cov.2, cov.4, cov.5]]
        var v = [[1.0, 0, 0], [0, 1.0, 0], [0, 0, 1.0]]
        for _ in 0..<32 {
            // The largest off-diagonal entry.
            var p = 0, q = 1
            if abs(a[0][2]) > abs(a[p][q]) { p = 0; q = 2 }
            if abs(a[1][2]) > abs(a[p][q]) { p = 1; q = 2 }
            let off = abs(a[p][q])
            if off < 1e-18 * (abs(a[0][0]) + abs(a[1][1]) + abs(a[2][2])) + 1e-300 { break }
            let theta = (a[q][q] - a[p][p]) / (2 * a[p][q])
            let t = (theta >= 0 ? 1 : -1) / (abs(theta) + (theta * theta + 1).squareRoot())
            let cs = 1 / (t * t + 1).squareRoot(), sn = t * cs
            for k in 0..<3 {  // A ← Jᵀ A J
                let akp = a[k][p], akq = a[k][q]
                a[k][p] = cs * akp - sn * akq; a[k][q] = sn * akp + cs * akq
            }
            for k in 0..<3 {
                let apk = a[p][k], aqk = a[q][k]
                a[p][k] = cs * apk - sn * aqk; a[q][k] = sn * apk + cs * aqk
            }
            for k in 0..<3 {  // V ← V J
                let vkp = v[k][p], vkq = v[k][q]
                v[k][p] = cs * vkp - sn * vkq; v[k][q] = sn * vkp + cs * vkq
            }
        }
        // Columns of v are the axes; make it a proper rotation.
        let det = v[0][0] * (v[1][1] * v[2][2] - v[1][2] * v[2][1]) - v[0][1] * (v[1][0] * v[2][2] - v[1][2] * v[2][0])
            + v[0][2] * (v[1][0] * v[2][1] - v[1][1] * v[2][0])
        if det < 0 { for k in 0..<3 { v[k][2] = -v[k][2] } }
        let scale = Vec3(Float(max(a[0][0], 1e-24).squareRoot()), Float(max(a[1][1], 1e-24).squareRoot()),
                         Float(max(a[2][2], 1e-24).squareRoot()))
        // Matrix → quaternion (Shepperd).
        let m00 = v[0][0], m11 = v[1][1], m22 = v[2][2], tr = m00 + m11 + m22
        var w, x, y, z: Double
        if tr > 0 {
            let s = (tr + 1).squareRoot() * 2
            w = s / 4; x = (v[2][1] - v[1][2]) / s; y = (v[0][2] - v[2][0]) / s; z = (v[1][0] - v[0][1]) / s
        } else if m00 > m11 && m00 > m22 {
            let s = (1 + m00 - m11 - m22).squareRoot() * 2
            w = (v[2][1] - v[1][2]) / s; x = s / 4; y = (v[0][1] + v[1][0]) / s; z = (v[0][2] + v[2][0]) / s
        } else if m11 > m22 {
            let s = (1 + m11 - m00 - m22).squareRoot() * 2
            w = (v[0][2] - v[2][0]) / s; x = (v[0][1] + v[1][0]) / s; y = s / 4; z = (v[1][2] + v[2][1]) / s
        } else {
            let s = (1 + m22 - m00 - m11).squareRoot() * 2
            w = (v[1][0] - v[0][1]) / s; x = (v[0][2] + v[2][0]) / s; y = (v[1][2] + v[2][1]) / s; z = s / 4
        }
        return (scale, Quaternion(w: Float(w), x: Float(x), y: Float(y), z: Float(z)).normalized)
    }

    /// Appends this splat to `c`.
    func append(to c: inout SplatCloud) {
        let (s, q) = scaleAndRotation()
        c.append(position: Vec3(Float(mean.x), Float(mean.y), Float(mean.z)), scale: s, rotation: q,
                 opacity: Float(opacity), dc: Vec3(colour[0], colour[1], colour[2]), rest: Array(colour.dropFirst(3)))
    }
}

extension GaussianMoments {
    /// log det(Σ + εI), ε in metres² (keeps flat splats finite).
    func logDeterminant(regularised epsilon: Double) -> Double {
        let (a, b, c, d, e, f) = cov
        return log(Swift.max(Self.determinant((a + epsilon, b, c, d + epsilon, e, f + epsilon)), 1e-300))
    }

    /// Runnalls' upper bound on the Kullback–Leibler divergence from the coverage-weighted
    /// mixture of `a` and `b` to its moment-matched merge, per unit weight (nats):
    /// ½[log det Σₘ − p log det Σa − (1 − p) log det Σb], p = a's share of the coverage.
    /// Scale-free: two splats that overlap well relative to their size merge cheaply. (The shares
    /// stay by coverage, not `momentWeight`: with the merge's own weights the playbot lost 0.1–0.4 dB.)
    /// `coverageA` and `coverageB` are the two splats' `coverage`, which the caller computes once per level.
    static func mergeCost(_ a: GaussianMoments, _ b: GaussianMoments, _ logDetA: Double, _ logDetB: Double,
                          coverageA: Double, coverageB: Double, epsilon: Double) -> Double {
        let wa = Swift.max(coverageA, 1e-30), wb = Swift.max(coverageB, 1e-30)
        let p = wa / (wa + wb), q = 1 - p
        let d = a.mean - b.mean, k = p * q
        let merged = (p * a.cov.0 + q * b.cov.0 + k * d.x * d.x + epsilon, p * a.cov.1 + q * b.cov.1 + k * d.x * d.y,
                      p * a.cov.2 + q * b.cov.2 + k * d.x * d.z, p * a.cov.3 + q * b.cov.3 + k * d.y * d.y + epsilon,
                      p * a.cov.4 + q * b.cov.4 + k * d.y * d.z, p * a.cov.5 + q * b.cov.5 + k * d.z * d.z + epsilon)
        return 0.5 * (log(Swift.max(determinant(merged), 1e-300)) - p * logDetA - q * logDetB)
    }
}

