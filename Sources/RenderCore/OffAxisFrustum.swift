/// Kooima's generalised perspective projection for a screen in the plane z = 0 of screen space.
///
/// For an eye at (x, y, z) with z > 0 in front of a W×H screen centred at the origin:
/// `projection = glFrustum(l, r, b, t, n, f)` with
/// l = (−W/2 − x)·n/z, r = (W/2 − x)·n/z, b = (−H/2 − y)·n/z, t = (H/2 − y)·n/z,
/// and `view` = translation by −eye (the screen is parallel to the camera's image plane,
/// so no rotation is needed). Every point of the screen plane then projects to the same pixel
/// whatever the eye position: the screen behaves like a window.
public enum OffAxisFrustum {
    /// The default near-plane distance in metres.
    public static let defaultNear: Float = 0.01
    /// The default far-plane distance in metres.
    public static let defaultFar: Float = 100

    /// Projection and view matrices for `eye` (screen space, metres; `eye.z` must be > 0).
    public static func matrices(eye: Vec3, screen: ScreenGeometry,
                                near: Float = defaultNear, far: Float = defaultFar) -> (projection: Matrix4, view: Matrix4) {
        matrices(eye: eye, rect: ScreenRect(screen: screen), near: near, far: far)
    }

    /// Projection and view matrices for `eye` looking through `rect`, a part of the screen
    /// plane (a window's rectangle): l = (minX − x)·n/z, r = (maxX − x)·n/z, b = (minY − y)·n/z,
    /// t = (maxY − y)·n/z.
    public static func matrices(eye: Vec3, rect: ScreenRect,
                                near: Float = defaultNear, far: Float = defaultFar) -> (projection: Matrix4, view: Matrix4) {
        let s = near / eye.z
        let l = (rect.minX - eye.x) * s
        let r = (rect.maxX - eye.x) * s
        let b = (rect.minY - eye.y) * s
        let t = (rect.maxY - eye.y) * s
        return (Matrix4.frustum(left: l, right: r, bottom: b, top: t, near: near, far: far),
                Matrix4.translation(-eye))
    }

    /// A full camera for an image of `width`×`height` pixels looking through `screen` from `eye`.
    public static func camera(eye: Vec3, screen: ScreenGeometry, width: Int, height: Int,
                              near: Float = defaultNear, far: Float = defaultFar,
                              background: Vec3 = Vec3(0, 0, 0)) -> Camera {
        camera(eye: eye, rect: ScreenRect(screen: screen), width: width, height: height, near: near, far: far, background: background)
    }

    /// A full camera for an image of `width`×`height` pixels spanning `rect` of the screen plane.
    public static func camera(eye: Vec3, rect: ScreenRect, width: Int, height: Int,
                              near: Float = defaultNear, far: Float = defaultFar,
                              background: Vec3 = Vec3(0, 0, 0)) -> Camera {
        let (p, v) = matrices(eye: eye, rect: rect, near: near, far: far)
        return Camera(width: width, height: height, view: v, projection: p, background: background)
    }
}
