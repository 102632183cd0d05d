// SceneIO — GLTFSplatTransform: splats carried through an affine map (a glTF node's global
// matrix, then glTF's frame to the splat frame), as KHR_gaussian_splatting says: centres by the
// matrix, covariances Σ' = M·Σ·Mᵀ with M the upper-left 3×3, and the SH bands turned by M's
// rotation (its columns divided by their lengths).
//
// Contract: a similarity (orthogonal columns of one length, no mirror) keeps each splat's scales
// times the length and composes its rotation; any other M (non-uniform scale, mirror) rebuilds
// scales and rotation from Σ' by its eigenvectors (Jacobi), so the rendered ellipsoid is the
// transformed one either way. The SH are turned by the orthogonal part; a shear (no
// decomposition, undefined by the extension) turns them by the column-normalised matrix.
import Foundation
import RenderCore

/// The affine map of one mesh instance, ready to apply to splats.
struct GLTFSplatTransform {
    /// Upper-left 3×3, columns.
    let a: (SIMD3<Double>, SIMD3<Double>, SIMD3<Double>)
    let t: SIMD3<Double>
    /// Column lengths (the node's scale) and the column-normalised matrix's columns.
    let lengths: SIMD3<Double>
    let r: (SIMD3<Double>, SIMD3<Double>, SIMD3<Double>)
    /// A proper similarity: scales multiply by `lengths.x`, rotations compose with `turn`.
    let isSimilarity: Bool
    let turn: Quaternion
    /// Whether `r` is the identity (nothing to turn in the SH).
    let keepsAxes: Bool

    init(_ m: GLTFMatrix) {
        func col(_ c: Int) -> SIMD3<Double> { SIMD3(m.m[c][0], m.m[c][1], m.m[c][2]) }
        a = (col(0), col(1), col(2))
        t = col(3)
        func len(_ v: SIMD3<Double>) -> Double { (v * v).sum().squareRoot() }
        lengths = SIMD3(len(a.0), len(a.1), len(a.2))
        let safe = SIMD3(lengths.x > 0 ? lengths.x : 1, lengths.y > 0 ? lengths.y : 1, lengths.z > 0 ? lengths.z : 1)
        r = (a.0 / safe.x, a.1 / safe.y, a.2 / safe.z)
        let det = (r.0 * Self.cross(r.1, r.2)).sum()
        let tol = 1e-6
        let orthogonal = abs((r.0 * r.1).sum()) < tol && abs((r.0 * r.2).sum()) < tol && abs((r.1 * r.2).sum()) < tol
        let uniform = abs(lengths.x - lengths.y) <= tol * lengths.x && abs(lengths.x - lengths.z) <= tol * lengths.x
        isSimilarity = orthogonal && uniform && det > 0 && lengths.x > 0
        let rc = r
        let rows: [[Float]] = (0..<3).map { i in [Float(rc.0[i]), Float(rc.1[i]), Float(rc.2[i])] }
        turn = SPZAxisMap.quaternion(rows)
        keepsAxes = r.0 == SIMD3(1, 0, 0) && r.1 == SIMD3(0, 1, 0) && r.2 == SIMD3(0, 0, 1)
    }

    static func cross(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> SIMD3<Double> {
        SIMD3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x)
    }

    @inline(__always) func point(_ p: Vec3) -> Vec3 {
        let v = a.0 * Double(p.x) + a.1 * Double(p.y) + a.2 * Double(p.z) + t
        return Vec3(Float(v.x), Float(v.y), Float(v.z))
    }

    /// A splat's scale and rotation after the map.
    func shape(scale s: Vec3, rotation q: Quaternion) -> (Vec3, Quaternion) {
        if isSimilarity { return (s * Float(lengths.x), (turn * q).normalized) }
        // Σ' = A·R·S²·Rᵀ·Aᵀ = (A·R·S)(A·R·S)ᵀ.
        let (c0, c1, c2) = q.normalized.rotationColumns
        let rs = [c0 * s.x, c1 * s.y, c2 * s.z].map { c in a.0 * Double(c.x) + a.1 * Double(c.y) + a.2 * Double(c.z) }
        var sigma = [[Double]](repeating: [0, 0, 0], count: 3)
        for i in 0..<3 { for j in 0..<3 { sigma[i][j] = rs.reduce(0) { $0 + $1[i] * $1[j] } } }
        let (values, vectors) = Self.eigen(sigma)
        var v = vectors                                   // columns
        let det = (v[0] * Self.cross(v[1], v[2])).sum()
        if det < 0 { v[2] = -v[2] }
        let rows: [[Float]] = (0..<3).map { i in [Float(v[0][i]), Float(v[1][i]), Float(v[2][i])] }
        let scale = Vec3(Float(max(0, values[0]).squareRoot()), Float(max(0, values[1]).squareRoot()), Float(max(0, values[2]).squareRoot()))
        return (scale, SPZAxisMap.quaternion(rows))
    }

    /// Eigenvalues and unit eigenvectors (columns) of a symmetric 3×3 matrix (cyclic Jacobi).
    static func eigen(_ s: [[Double]]) -> ([Double], [SIMD3<Double>]) {
        var a = s
        var v: [[Double]] = [[1, 0, 0], [0, 1, 0], [0, 0, 1]]      // v[row][col]
        for _ in 0..<50 {
            let off = a[0][1] * a[0][1] + a[0][2] * a[0][2] + a[1][2] * a[1][2]
            if off < 1e-30 * max(1e-300, a[0][0] * a[0][0] + a[1][1] * a[1][1] + a[2][2] * a[2][2]) { break }
            for (p, q) in [(0, 1), (0, 2), (1, 2)] where a[p][q] != 0 {
                let theta = (a[q][q] - a[p][p]) / (2 * a[p][q])
                let t = (theta >= 0 ? 1 : -1) / (abs(theta) + (theta * theta + 1).squareRoot())
                let c = 1 / (t * t + 1).squareRoot(), sn = t * c
                for k in 0..<3 {
                    let akp = a[k][p], akq = a[k][q]
                    a[k][p] = c * akp - sn * akq; a[k][q] = sn * akp + c * akq
                }
                for k in 0..<3 {
                    let apk = a[p][k], aqk = a[q][k]
                    a[p][k] = c * apk - sn * aqk; a[q][k] = sn * apk + c * aqk
                }
                for k in 0..<3 {
                    let vkp = v[k][p], vkq = v[k][q]
                    v[k][p] = c * vkp - sn * vkq; v[k][q] = sn * vkp + c * vkq
                }
            }
        }
        return ([a[0][0], a[1][1], a[2][2]], (0..<3).map { c in SIMD3(v[0][c], v[1][c], v[2][c]) })
    }
}
