import RenderCore
import Testing

@Suite("Off-axis frustum")
struct OffAxisFrustumTests {
    let screen = ScreenGeometry(width: 0.6, height: 0.34)

    @Test("matches glFrustum(l, r, b, t, n, f) with Kooima's extents")
    func matchesFormula() {
        let eye = Vec3(0.1, -0.05, 0.5), n: Float = 0.01, f: Float = 100
        let (p, v) = OffAxisFrustum.matrices(eye: eye, screen: screen, near: n, far: f)
        let l = (-0.3 - eye.x) * n / eye.z, r = (0.3 - eye.x) * n / eye.z
        let b = (-0.17 - eye.y) * n / eye.z, t = (0.17 - eye.y) * n / eye.z
        #expect(abs(p[0, 0] - 2 * n / (r - l)) < 1e-5)
        #expect(abs(p[1, 1] - 2 * n / (t - b)) < 1e-5)
        #expect(abs(p[0, 2] - (r + l) / (r - l)) < 1e-5)
        #expect(abs(p[1, 2] - (t + b) / (t - b)) < 1e-5)
        #expect(abs(p[2, 2] + (f + n) / (f - n)) < 1e-5)
        #expect(abs(p[2, 3] + 2 * f * n / (f - n)) < 1e-6)
        #expect(p[3, 2] == -1 && p[3, 3] == 0)
        #expect(v == Matrix4.translation(-eye))
        let cam = Camera(width: 10, height: 10, view: v, projection: p)
        #expect(abs(cam.near - n) < 1e-5)
        #expect(abs(cam.far - f) / f < 1e-3)
        #expect(simd_distance(cam.position, eye) < 1e-5)
    }

    @Test("window invariance: points on the screen plane land on the same pixel for every eye")
    func windowInvariance() {
        let size = (1280, 720)
        var worst: Float = 0
        for ex in stride(from: -0.5 as Float, through: 0.5, by: 0.25) {
            for ey in stride(from: -0.3 as Float, through: 0.3, by: 0.15) {
                for ez in [0.25 as Float, 0.6, 1.2, 3] {
                    let cam = OffAxisFrustum.camera(eye: Vec3(ex, ey, ez), screen: screen, width: size.0, height: size.1)
                    for sx in stride(from: -0.3 as Float, through: 0.3, by: 0.1) {
                        for sy in stride(from: -0.17 as Float, through: 0.17, by: 0.085) {
                            guard let hit = cam.project(Vec3(sx, sy, 0)) else { Issue.record("behind camera"); return }
                            let expected = Vec2((sx / 0.6 + 0.5) * 1280, (0.5 - sy / 0.34) * 720)
                            worst = max(worst, simd_distance2(hit.pixel, expected))
                        }
                    }
                }
            }
        }
        #expect(worst <= 1e-3, "largest deviation \(worst) px")
    }

    @Test("the back wall shifts toward the side the head moved to, by the amount the projection predicts")
    func parallaxDirection() {
        let depth: Float = 0.6
        let point = Vec3(0, 0, -depth)               // centre of the back wall
        let centre = OffAxisFrustum.camera(eye: Vec3(0, 0, 0.6), screen: screen, width: 1280, height: 720).project(point)!
        let moved = OffAxisFrustum.camera(eye: Vec3(0.1, 0, 0.6), screen: screen, width: 1280, height: 720).project(point)!
        #expect(abs(centre.pixel.x - 640) < 1e-3)
        // Similar triangles: the ray from the eye to the point crosses z = 0 at x = ex·d/(d + ez).
        let crossing = 0.1 * depth / (depth + 0.6)
        let expectedPx = (crossing / 0.6 + 0.5) * 1280
        #expect(moved.pixel.x > centre.pixel.x, "head moved right, the far point appears further right on screen")
        #expect(abs(moved.pixel.x - expectedPx) < 1e-2)
        #expect(abs(moved.depth - 1.2) < 1e-5)
    }
}

private func simd_distance(_ a: Vec3, _ b: Vec3) -> Float { (a - b).length }
private func simd_distance2(_ a: Vec2, _ b: Vec2) -> Float { ((a - b) * (a - b)).sum().squareRoot() }
