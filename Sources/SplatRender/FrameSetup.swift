// FrameSetup — the per-frame camera constants of the preprocess stage.
import RenderCore

/// Camera constants derived once per frame from a `Camera` (image contract steps 1–4).
struct FrameSetup {
    /// Rows of the view matrix's upper 3×4 (world → OpenGL camera space).
    var v00, v01, v02, v03, v10, v11, v12, v13, v20, v21, v22, v23: Float
    /// Intrinsics in image coordinates (y down): focal lengths and principal point, pixels.
    var fx, fy, cx, cy: Float
    /// Near-plane distance (metres); splats at depth ≤ near are culled.
    var near: Float
    /// EWA clamp limits on u/d and v/d (tan of the guarded half fields of view).
    var limXPos, limXNeg, limYPos, limYNeg: Float
    /// Camera centre in world space (for SH view directions).
    var camX, camY, camZ: Float
    /// Image size.
    var width, height: Int
    /// Mip-Splatting-style opacity compensation.
    var antialias: Bool

    init(camera: Camera, antialias: Bool) {
        let V = camera.view, P = camera.projection
        v00 = V[0, 0]; v01 = V[0, 1]; v02 = V[0, 2]; v03 = V[0, 3]
        v10 = V[1, 0]; v11 = V[1, 1]; v12 = V[1, 2]; v13 = V[1, 3]
        v20 = V[2, 0]; v21 = V[2, 1]; v22 = V[2, 2]; v23 = V[2, 3]
        width = camera.width; height = camera.height
        let W = Float(width), H = Float(height)
        fx = W / 2 * P[0, 0]; cx = W / 2 * (1 - P[0, 2])
        fy = H / 2 * P[1, 1]; cy = H / 2 * (1 + P[1, 2])
        near = camera.near
        let tanX = W / (2 * fx), tanY = H / (2 * fy)
        limXPos = (W - cx) / fx + SplatTunables.frustumGuard * tanX
        limXNeg = cx / fx + SplatTunables.frustumGuard * tanX
        limYPos = (H - cy) / fy + SplatTunables.frustumGuard * tanY
        limYNeg = cy / fy + SplatTunables.frustumGuard * tanY
        let c = Self.cameraCentre(V)
        camX = c.x; camY = c.y; camZ = c.z
        self.antialias = antialias
    }

    /// The camera centre in world space, −M⁻¹·t for the view's upper 3×3 M and translation t,
    /// solved in Double by cofactors without allocating (`Camera.position` inverts the full
    /// 4×4 through arrays). Returns the origin for a singular M (as `Camera.position` does).
    static func cameraCentre(_ V: Matrix4) -> Vec3 {
        let m00 = Double(V[0, 0]), m01 = Double(V[0, 1]), m02 = Double(V[0, 2])
        let m10 = Double(V[1, 0]), m11 = Double(V[1, 1]), m12 = Double(V[1, 2])
        let m20 = Double(V[2, 0]), m21 = Double(V[2, 1]), m22 = Double(V[2, 2])
        let t0 = Double(V[0, 3]), t1 = Double(V[1, 3]), t2 = Double(V[2, 3])
        let c00 = m11 * m22 - m12 * m21, c01 = m12 * m20 - m10 * m22, c02 = m10 * m21 - m11 * m20
        let det = m00 * c00 + m01 * c01 + m02 * c02
        guard det != 0, det.isFinite else { return Vec3(0, 0, 0) }
        // Rows of the inverse = (cofactor matrix)ᵀ / det.
        let i00 = c00, i01 = m02 * m21 - m01 * m22, i02 = m01 * m12 - m02 * m11
        let i10 = c01, i11 = m00 * m22 - m02 * m20, i12 = m02 * m10 - m00 * m12
        let i20 = c02, i21 = m01 * m20 - m00 * m21, i22 = m00 * m11 - m01 * m10
        return Vec3(Float(-(i00 * t0 + i01 * t1 + i02 * t2) / det),
                    Float(-(i10 * t0 + i11 * t1 + i12 * t2) / det),
                    Float(-(i20 * t0 + i21 * t1 + i22 * t2) / det))
    }
}
