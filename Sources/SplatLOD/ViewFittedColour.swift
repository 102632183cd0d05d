// SplatLOD — ViewFittedColour: the SH colour of a merged splat, fitted to what its two children
// show together from every direction (the nearer one hiding part of the farther one).
import Foundation
import RenderCore

/// Fits a merged splat's SH colour coefficients to its two children's combined colour, seen from
/// `directionCount` directions spread over the sphere.
///
/// From direction d (eye → splat, the renderer's SH direction) each child is a 2-D Gaussian on
/// the plane across d with covariance Σ⊥ (Σ projected onto that plane) and peak opacity α. Its
/// colour reaches the picture in proportion to its composited coverage — the integral over that
/// plane of what it adds:
/// - the nearer child (smaller mean·d): α_f·√det F (in units of 2π);
/// - the farther one, behind it: α_b·(√det B − α_f·√(det B·det F / det S)·e^(−½ Δᵀ S⁻¹ Δ)),
///   S = B + F, Δ the two means' offset across d (the second term is ∫ α_f G_f · G_b).
///
/// The target colour from d is the two children's clamped colours (max(SH·basis + 0.5, 0)) mixed
/// by those shares, and the merged coefficients are its least-squares fit on the SH basis of the
/// capture's degree. Averaging the coefficients instead (what a moment merge does for position)
/// mixes a surface's front and back colours into every direction and loses the view-dependent
/// terms level by level: on the playbot's coarse levels the fit gains 0.2–0.5 dB.
enum ViewFittedColour {
    /// Directions sampled (Fibonacci sphere); 32 to 128 give the same trees within 0.1 dB.
    static let directionCount = 48

    /// Unit directions, eye → splat.
    static let directions: [SIMD3<Double>] = (0..<directionCount).map { i in
        let z = 1 - (2 * Double(i) + 1) / Double(directionCount)
        let r = (1 - z * z).squareRoot(), phi = Double(i) * Double.pi * (3 - 5.0.squareRoot())
        return SIMD3(r * cos(phi), r * sin(phi), z)
    }

    /// Per direction: two unit vectors spanning the plane across it.
    static let across: [(SIMD3<Double>, SIMD3<Double>)] = directions.map { d in
        let helper = abs(d.x) < 0.9 ? SIMD3<Double>(1, 0, 0) : SIMD3<Double>(0, 1, 0)
        var u = helper - d * (helper * d).sum()
        u /= (u * u).sum().squareRoot()
        return (u, SIMD3(d.y * u.z - d.z * u.y, d.z * u.x - d.x * u.z, d.x * u.y - d.y * u.x))
    }

    /// The 16 SH basis values per direction: row j of 16 at `j * 16`.
    static let basisTable: [Double] = directions.flatMap(SphericalHarmonics.basis)

    /// At index K − 1, for coefficient counts K of 1, 4, 9 or 16 (bands 0…3): the K ×
    /// `directionCount` least-squares projection (YᵀY)⁻¹Yᵀ, row-major, Y the basis table's first K
    /// columns (empty for other K).
    static let projections: [[Double]] = (1...16).map { [1, 4, 9, 16].contains($0) ? projection($0) : [] }

    private static func projection(_ k: Int) -> [Double] {
        let n = directionCount, w = 2 * k
        // [YᵀY | I], reduced by Gauss–Jordan with partial pivoting to [I | (YᵀY)⁻¹].
        var a = [Double](repeating: 0, count: k * w)
        for r in 0..<k {
            for c in 0..<k { a[r * w + c] = (0..<n).reduce(0) { $0 + basisTable[$1 * 16 + r] * basisTable[$1 * 16 + c] } }
            a[r * w + k + r] = 1
        }
        for c in 0..<k {
            let p = (c..<k).max { abs(a[$0 * w + c]) < abs(a[$1 * w + c]) }!
            if p != c { for j in 0..<w { a.swapAt(p * w + j, c * w + j) } }
            let inv = 1 / a[c * w + c]
            for j in 0..<w { a[c * w + j] *= inv }
            for r in 0..<k where r != c && a[r * w + c] != 0 {
                let f = a[r * w + c]
                for j in 0..<w { a[r * w + j] -= f * a[c * w + j] }
            }
        }
        var out = [Double](repeating: 0, count: k * n)
        for r in 0..<k {
            for j in 0..<n { out[r * n + j] = (0..<k).reduce(0) { $0 + a[r * w + k + $1] * basisTable[j * 16 + $1] } }
        }
        return out
    }

    /// The shares of `a`'s and `b`'s colours in what the two show from direction `directions[j]`
    /// (they sum to 1; by coverage when neither covers anything from there, e.g. two discs edge-on).
    @inline(__always)
    static func shares(_ a: GaussianMoments, _ b: GaussianMoments, direction j: Int) -> (a: Double, b: Double) {
        let d = directions[j], (u, w) = across[j]
        @inline(__always) func projected(_ c: (Double, Double, Double, Double, Double, Double)) -> (Double, Double, Double) {
            let (xx, xy, xz, yy, yz, zz) = c
            @inline(__always) func form(_ p: SIMD3<Double>, _ r: SIMD3<Double>) -> Double {
                p.x * (xx * r.x + xy * r.y + xz * r.z) + p.y * (xy * r.x + yy * r.y + yz * r.z) + p.z * (xz * r.x + yz * r.y + zz * r.z)
            }
            return (form(u, u), form(u, w), form(w, w))
        }
        let aFront = (a.mean * d).sum() <= (b.mean * d).sum()
        let pa = projected(a.cov), pb = projected(b.cov)
        let f = aFront ? pa : pb, bk = aFront ? pb : pa
        let nearOpacity = aFront ? a.opacity : b.opacity, farOpacity = aFront ? b.opacity : a.opacity
        let detF = max(f.0 * f.2 - f.1 * f.1, 0), detB = max(bk.0 * bk.2 - bk.1 * bk.1, 0)
        let s = (f.0 + bk.0, f.1 + bk.1, f.2 + bk.2), detS = max(s.0 * s.2 - s.1 * s.1, 1e-300)
        let delta = b.mean - a.mean, du = (delta * u).sum(), dw = (delta * w).sum()  // sign drops out
        let mahalanobis = (s.2 * du * du - 2 * s.1 * du * dw + s.0 * dw * dw) / detS
        let nearShare = nearOpacity * detF.squareRoot()
        let hidden = nearOpacity * (detB * detF / detS).squareRoot() * exp(-0.5 * mahalanobis)
        let farShare = max(farOpacity * (detB.squareRoot() - hidden), 0)
        let total = nearShare + farShare
        guard total > 1e-300 else {
            let ca = max(a.coverage, 1e-30), cb = max(b.coverage, 1e-30)
            return (ca / (ca + cb), cb / (ca + cb))
        }
        return aFront ? (nearShare / total, farShare / total) : (farShare / total, nearShare / total)
    }

    /// The merged splat's colour coefficients (the cloud's layout: dc, then the rest, channel
    /// innermost), fitted as described above. `a` and `b` hold the same number of coefficients.
    static func fit(_ a: GaussianMoments, _ b: GaussianMoments) -> [Float] {
        let k = a.colour.count / 3, n = directionCount
        guard (1...16).contains(k), a.colour.count == k * 3, b.colour.count == a.colour.count else { return a.colour }
        let proj = projections[k - 1]
        guard !proj.isEmpty else { return a.colour }
        return withUnsafeTemporaryAllocation(of: Double.self, capacity: n * 3 + k * 6) { buffer in
            let target = buffer.baseAddress!, ca = target + n * 3, cb = ca + k * 3
            for i in 0..<(k * 3) { ca[i] = Double(a.colour[i]); cb[i] = Double(b.colour[i]) }
            basisTable.withUnsafeBufferPointer { basis in
                for j in 0..<n {
                    let y = basis.baseAddress! + j * 16, share = shares(a, b, direction: j)
                    var ra = 0.5, ga = 0.5, ba = 0.5, rb = 0.5, gb = 0.5, bb = 0.5
                    for i in 0..<k {
                        let v = y[i]
                        ra += v * ca[i * 3]; ga += v * ca[i * 3 + 1]; ba += v * ca[i * 3 + 2]
                        rb += v * cb[i * 3]; gb += v * cb[i * 3 + 1]; bb += v * cb[i * 3 + 2]
                    }
                    target[j * 3] = share.a * max(ra, 0) + share.b * max(rb, 0) - 0.5
                    target[j * 3 + 1] = share.a * max(ga, 0) + share.b * max(gb, 0) - 0.5
                    target[j * 3 + 2] = share.a * max(ba, 0) + share.b * max(bb, 0) - 0.5
                }
            }
            var out = [Float](repeating: 0, count: k * 3)
            proj.withUnsafeBufferPointer { p in
                for r in 0..<k {
                    var sr = 0.0, sg = 0.0, sb = 0.0
                    for j in 0..<n {
                        let w = p[r * n + j]
                        sr += w * target[j * 3]; sg += w * target[j * 3 + 1]; sb += w * target[j * 3 + 2]
                    }
                    out[r * 3] = Float(sr); out[r * 3 + 1] = Float(sg); out[r * 3 + 2] = Float(sb)
                }
            }
            return out
        }
    }
}
