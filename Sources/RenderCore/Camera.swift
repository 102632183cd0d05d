/// A pinhole camera: image size, view and projection matrices (OpenGL conventions) and the
/// background colour. This is the contract of `--camera CAM.json` and of every renderer.
public struct Camera: Equatable, Sendable {
    /// Image width in pixels.
    public var width: Int
    /// Image height in pixels.
    public var height: Int
    /// World → camera space (camera looks down −Z, +Y up).
    public var view: Matrix4
    /// Camera → clip space (possibly asymmetric); clip z in [−1, 1].
    public var projection: Matrix4
    /// Background colour, linear 0…1 values written straight to 8-bit (no gamma).
    public var background: Vec3

    /// Creates a camera.
    public init(width: Int, height: Int, view: Matrix4, projection: Matrix4, background: Vec3 = .zero) {
        self.width = width; self.height = height
        self.view = view; self.projection = projection; self.background = background
    }

    /// `projection * view`.
    public var viewProjection: Matrix4 { projection * view }

    /// Camera centre in world space (from the inverse view matrix).
    public var position: Vec3 {
        guard let inv = view.inverse else { return .zero }
        return Vec3(inv.c3.x, inv.c3.y, inv.c3.z)
    }

    /// Near-plane distance read back from a perspective projection: n = P[2][3] / (P[2][2] − 1).
    public var near: Float { projection[2, 3] / (projection[2, 2] - 1) }
    /// Far-plane distance read back from a perspective projection: f = P[2][3] / (P[2][2] + 1).
    public var far: Float { projection[2, 3] / (projection[2, 2] + 1) }

    /// Projects a world point to pixel coordinates (x right, y down, pixel centres at +0.5) and
    /// camera-space depth along −Z; nil behind the camera.
    public func project(_ p: Vec3) -> (pixel: Vec2, depth: Float)? {
        let c = view.transform(point: p)
        let clip = projection * c
        guard clip.w > 0 else { return nil }
        let ndc = Vec2(clip.x / clip.w, clip.y / clip.w)
        return (Vec2((ndc.x + 1) * 0.5 * Float(width), (1 - ndc.y) * 0.5 * Float(height)), -c.z)
    }
}
