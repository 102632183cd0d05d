// PreparedSplats — a compact, render-ready copy of a SplatCloud, made once per scene.
//
// Structure of arrays in groups of 8 splats, so that preprocessing runs 8 splats per SIMD
// vector: `fields` holds `fieldCount` Float arrays of `paddedCount` entries (position,
// opacity, the view-independent 3D covariance Σ = R·S·Sᵀ·Rᵀ, the degree-0 colour
// C0·dc + 0.5, and τ = ln(255·opacity) — the largest −power at which the splat still reaches
// alpha 1/255, used to tighten its pixel rectangle). Higher SH coefficients are Float16,
// transposed per group: coefficient j = k·3 + channel of splat 8g + lane sits at
// `rest[(g · restCount·3 + j) · 8 + lane]`. Padding splats have opacity 0 (always culled).
import Foundation
import RenderCore

/// A `SplatCloud` converted for `SplatRenderer`: world-space covariances, pre-folded base
/// colour and half-precision SH, laid out for 8-wide SIMD. Immutable after creation; safe to
/// share between renderers.
public final class PreparedSplats: @unchecked Sendable {
    /// Field indices into `fields` (each an array of `paddedCount` Floats).
    enum Field: Int, CaseIterable {
        case x, y, z, opacity, sxx, sxy, sxz, syy, syz, szz, red, green, blue, tau
    }
    static let fieldCount = Field.allCases.count

    /// Number of splats.
    public let count: Int
    /// `count` rounded up to a multiple of 8.
    let paddedCount: Int
    /// SH degree used for colour (0…3).
    public let shDegree: Int
    /// Rest coefficients per channel (0, 3, 8 or 15).
    public let restCount: Int
    /// Axis-aligned bounds of the centres (world space, metres).
    public let bounds: Bounds
    let fields: UnsafeMutablePointer<Float>
    /// Floats between consecutive fields (`paddedCount`, at least 8).
    let fieldStride: Int
    let rest: UnsafeMutablePointer<Float16>

    /// Converts `cloud` (O(n), single-threaded; ~150 ms per million splats in release).
    public init(_ cloud: SplatCloud) {
        count = cloud.count
        paddedCount = (count + 7) / 8 * 8
        shDegree = min(3, max(0, cloud.shDegree))   // degree 4: bands 0–3, the first 15 of each splat's 24
        restCount = SplatCloud.restCount(degree: shDegree)
        bounds = cloud.bounds
        let total = max(8, paddedCount)
        fieldStride = total
        fields = .allocate(capacity: Self.fieldCount * total)
        fields.initialize(repeating: 0, count: Self.fieldCount * total)
        rest = .allocate(capacity: max(1, paddedCount * restCount * 3))
        rest.initialize(repeating: 0, count: max(1, paddedCount * restCount * 3))
        let f = { (k: Field) in self.fields + k.rawValue * total }
        let (px, py, pz, op) = (f(.x), f(.y), f(.z), f(.opacity))
        let (sxx, sxy, sxz, syy, syz, szz) = (f(.sxx), f(.sxy), f(.sxz), f(.syy), f(.syz), f(.szz))
        let (red, green, blue, tau) = (f(.red), f(.green), f(.blue), f(.tau))
        let srcRest = cloud.shRestCount, k3 = restCount * 3
        cloud.shRest.withUnsafeBufferPointer { sr in
            for i in 0..<count {
                let p = cloud.positions[i], s = cloud.scales[i]
                px[i] = p.x; py[i] = p.y; pz[i] = p.z
                op[i] = cloud.opacities[i]
                let (c0, c1, c2) = cloud.rotations[i].normalized.rotationColumns
                // M = R·S (columns scaled); Σ = M·Mᵀ.
                let m0 = c0 * s.x, m1 = c1 * s.y, m2 = c2 * s.z
                func sig(_ a: Int, _ b: Int) -> Float { m0[a] * m0[b] + m1[a] * m1[b] + m2[a] * m2[b] }
                sxx[i] = sig(0, 0); sxy[i] = sig(0, 1); sxz[i] = sig(0, 2)
                syy[i] = sig(1, 1); syz[i] = sig(1, 2); szz[i] = sig(2, 2)
                let dc = cloud.dc[i]
                red[i] = SphericalHarmonics.c0 * dc.x + 0.5
                green[i] = SphericalHarmonics.c0 * dc.y + 0.5
                blue[i] = SphericalHarmonics.c0 * dc.z + 0.5
                tau[i] = Self.alphaExponent(opacity: op[i])
                let group = i / 8, lane = i % 8
                for j in 0..<k3 {  // j = k·3 + c, the cloud's own (channel innermost) order
                    let v = sr[i * srcRest * 3 + j]
                    rest[(group * k3 + j) * 8 + lane] = Float16(min(max(v, -65504), 65504))
                }
            }
        }
    }

    /// ln(255·opacity) rounded up slightly (0 when opacity < 1/255): pixels whose exponent
    /// is below −τ have alpha < 1/255 and are skipped by the contract anyway.
    @inline(__always)
    static func alphaExponent(opacity: Float) -> Float {
        guard opacity >= SplatTunables.alphaMin else { return 0 }
        return Float(log(255 * Double(opacity))) * (1 + 1e-5) + 1e-4
    }

    deinit {
        fields.deallocate()
        rest.deallocate()
    }
}
