// SceneIO — SHRotation: the matrices that turn a splat's spherical-harmonic bands 1–3 with a
// rotation of its frame (a glTF node's rotation, a change of axes).
//
// Contract: for a rotation R (frame A → frame B) and the 3DGS basis of `SphericalHarmonics`
// (the basis KHR_gaussian_splatting's Appendix A gives, Condon–Shortley phase included),
// `SHRotation(R)` holds for each band l a (2l+1)×(2l+1) matrix D_l with
// Σ_k (D_l c)_k · Y_lk(d) = Σ_k c_k · Y_lk(Rᵀ d) for every direction d: the coefficients c of a
// colour seen along d in frame A become D_l c in frame B. Band 0 does not change.
//
// How: band l's functions span a space that rotations keep, so D_l is fixed by the values on a
// few directions. With B the band's basis sampled at 20 fixed well-spread directions uⱼ and B'
// the same at Rᵀuⱼ, D_l = (BᵀB)⁻¹BᵀB' (least squares, exact up to rounding). (BᵀB)⁻¹Bᵀ is
// computed once. The tests check it against projecting rotated functions on a dense sphere.
import Foundation
import RenderCore

/// Per-band SH rotation matrices for one rotation.
struct SHRotation {
    /// D_1, D_2, D_3 as row-major (2l+1)² arrays.
    let bands: [[Double]]

    /// Directions the bands are sampled on: a Fibonacci sphere of 20 points.
    static let directions: [SIMD3<Double>] = (0..<20).map { i in
        let z = 1 - (2 * Double(i) + 1) / 20
        let r = (1 - z * z).squareRoot(), phi = Double(i) * 2.399963229728653
        return SIMD3(r * cos(phi), r * sin(phi), z)
    }

    /// Where band l's coefficients sit among the 16 basis values (1, 4, 9).
    static func first(_ l: Int) -> Int { l * l }

    /// (BᵀB)⁻¹Bᵀ per band, (2l+1) × 20, row-major.
    static let pseudoInverses: [[Double]] = (1...3).map { l in
        let n = 2 * l + 1, m = directions.count
        let b = directions.map { Array(SphericalHarmonics.basis($0)[first(l)..<first(l) + n]) }   // m × n
        var ata = [Double](repeating: 0, count: n * n)
        for r in 0..<n { for c in 0..<n { ata[r * n + c] = (0..<m).reduce(0) { $0 + b[$1][r] * b[$1][c] } } }
        let inv = invert(ata, n)
        var out = [Double](repeating: 0, count: n * m)
        for r in 0..<n { for j in 0..<m { out[r * m + j] = (0..<n).reduce(0) { $0 + inv[r * n + $1] * b[j][$1] } } }
        return out
    }

    /// The matrices for the rotation with `columns` (R's columns: R·x = c0·x.x + c1·x.y + c2·x.z).
    init(columns c: (SIMD3<Double>, SIMD3<Double>, SIMD3<Double>)) {
        let m = Self.directions.count
        // Rᵀu: the components of u along R's columns.
        let turned = Self.directions.map { u in SphericalHarmonics.basis(SIMD3((c.0 * u).sum(), (c.1 * u).sum(), (c.2 * u).sum())) }
        bands = (1...3).map { l in
            let n = 2 * l + 1, f = Self.first(l), p = Self.pseudoInverses[l - 1]
            var d = [Double](repeating: 0, count: n * n)
            for r in 0..<n { for k in 0..<n { d[r * n + k] = (0..<m).reduce(0) { $0 + p[r * m + $1] * turned[$1][f + k] } } }
            return d
        }
    }

    /// Rotates `count` splats' rest coefficients in place (SplatCloud layout: splat, coefficient,
    /// channel innermost; `restCount` per channel, bands 1–3 turned, any further ones left).
    func apply(to rest: inout [Float], restCount: Int, count: Int) {
        let bandsHeld = restCount >= 15 ? 3 : restCount >= 8 ? 2 : restCount >= 3 ? 1 : 0
        guard bandsHeld > 0 else { return }
        let d = bands.map { $0.map(Float.init) }
        rest.withUnsafeMutableBufferPointer { buf in
            var tmp = [Float](repeating: 0, count: 21)
            for i in 0..<count {
                let base = i * restCount * 3
                for l in 1...bandsHeld {
                    let n = 2 * l + 1, off = base + (Self.first(l) - 1) * 3, dl = d[l - 1]
                    for r in 0..<n {
                        var s = SIMD3<Float>.zero
                        for k in 0..<n {
                            let o = off + k * 3
                            s += dl[r * n + k] * SIMD3(buf[o], buf[o + 1], buf[o + 2])
                        }
                        tmp[r * 3] = s.x; tmp[r * 3 + 1] = s.y; tmp[r * 3 + 2] = s.z
                    }
                    for j in 0..<n * 3 { buf[off + j] = tmp[j] }
                }
            }
        }
    }

    /// Inverse of a small symmetric positive-definite matrix (Gauss–Jordan with partial pivoting).
    static func invert(_ a: [Double], _ n: Int) -> [Double] {
        var m = a, inv = [Double](repeating: 0, count: n * n)
        for i in 0..<n { inv[i * n + i] = 1 }
        for col in 0..<n {
            let p = (col..<n).max { abs(m[$0 * n + col]) < abs(m[$1 * n + col]) }!
            if p != col { for k in 0..<n { m.swapAt(p * n + k, col * n + k); inv.swapAt(p * n + k, col * n + k) } }
            let d = m[col * n + col]
            for k in 0..<n { m[col * n + k] /= d; inv[col * n + k] /= d }
            for r in 0..<n where r != col {
                let f = m[r * n + col]
                if f == 0 { continue }
                for k in 0..<n { m[r * n + k] -= f * m[col * n + k]; inv[r * n + k] -= f * inv[col * n + k] }
            }
        }
        return inv
    }
}
