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
        let c = camera.position
        camX = c.x; camY = c.y; camZ = c.z
        self.antialias = antialias
    }
}
