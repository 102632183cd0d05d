// PreparedSplats — a compact, render-ready copy of a SplatCloud, made once per scene.
//
// Per splat, one 64-byte record [x y z opacity | Σxx Σxy Σxz Σyy Σyz Σzz | r0 g0 b0 | τ pad pad]
// (r0 g0 b0 = C0·dc + 0.5, the degree-0 colour; τ = ln(255·opacity), the largest −power at
// which the splat still reaches alpha 1/255, used to tighten its pixel rectangle) plus the
// higher SH coefficients as Float16, channel-major and zero-padded to 8 or 16 per channel so
// that preprocessing converts and dots them 8 at a time (`restStride` halves per splat).
// The 3D covariance Σ = R·S·Sᵀ·Rᵀ is view-independent, so it is computed here once.
import Foundation
import RenderCore

/// A `SplatCloud` converted for `SplatRenderer`: world-space covariances, pre-folded base
/// colour and half-precision SH. Immutable after creation; safe to share between renderers.
public final class PreparedSplats: @unchecked Sendable {
    /// Floats per splat record.
    static let stride = 16
    /// Number of splats.
    public let count: Int
    /// SH degree used for colour (0…3).
    public let shDegree: Int
    /// Rest coefficients per channel (0, 3, 8 or 15).
    public let restCount: Int
    /// Halves per channel in `rest` (0, 8 or 16: `restCount` rounded up to whole vectors).
    let restLanes: Int
    /// Halves per splat in `rest` (3 · `restLanes`).
    var restStride: Int { 3 * restLanes }
    /// Axis-aligned bounds of the centres (world space, metres).
    public let bounds: Bounds
    let records: UnsafeMutablePointer<Float>
    let rest: UnsafeMutablePointer<Float16>

    /// Converts `cloud` (O(n), single-threaded; about 50 ms per million splats in release).
    public init(_ cloud: SplatCloud) {
        count = cloud.count
        shDegree = min(3, max(0, cloud.shDegree))
        restCount = SplatCloud.restCount(degree: shDegree)
        restLanes = (restCount + 7) / 8 * 8
        bounds = cloud.bounds
        records = .allocate(capacity: max(1, count * Self.stride))
        rest = .allocate(capacity: max(1, count * restLanes * 3))
        rest.initialize(repeating: 0, count: max(1, count * restLanes * 3))
        let srcRest = cloud.shRestCount
        cloud.shRest.withUnsafeBufferPointer { sr in
            for i in 0..<count {
                let r = records + i * Self.stride
                let p = cloud.positions[i], s = cloud.scales[i]
                r[0] = p.x; r[1] = p.y; r[2] = p.z
                r[3] = cloud.opacities[i]
                let (c0, c1, c2) = cloud.rotations[i].normalized.rotationColumns
                // M = R·S (columns scaled); Σ = M·Mᵀ.
                let m0 = c0 * s.x, m1 = c1 * s.y, m2 = c2 * s.z
                func sig(_ a: Int, _ b: Int) -> Float { m0[a] * m0[b] + m1[a] * m1[b] + m2[a] * m2[b] }
                r[4] = sig(0, 0); r[5] = sig(0, 1); r[6] = sig(0, 2)
                r[7] = sig(1, 1); r[8] = sig(1, 2); r[9] = sig(2, 2)
                let dc = cloud.dc[i]
                r[10] = SphericalHarmonics.c0 * dc.x + 0.5
                r[11] = SphericalHarmonics.c0 * dc.y + 0.5
                r[12] = SphericalHarmonics.c0 * dc.z + 0.5
                r[13] = Self.alphaExponent(opacity: r[3]); r[14] = 0; r[15] = 0
                let dst = rest + i * restLanes * 3
                let src = i * srcRest * 3
                for k in 0..<restCount {
                    for c in 0..<3 {
                        dst[c * restLanes + k] = Float16(min(max(sr[src + k * 3 + c], -65504), 65504))
                    }
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
        records.deallocate()
        rest.deallocate()
    }
}
