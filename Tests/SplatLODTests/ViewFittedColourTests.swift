// SplatLODTests — a merged splat's colour fitted by direction: each child's share from a direction
// against integrating the two composited Gaussians on a grid (the slow reference), the fit giving
// back a colour both children share, and a two-sided wall keeping its two sides' colours.
import Foundation
import RenderCore
@testable import SplatLOD
import Testing

struct ViewFittedColourTests {
    /// One splat of `c` as `GaussianMoments`, added by its parts.
    static func splat(_ p: Vec3, _ s: Vec3, _ q: Quaternion, _ opacity: Float, colour: Vec3, degree: Int = 0,
                      rest: [Float]? = nil) -> GaussianMoments {
        var c = SplatCloud(shDegree: degree)
        let dc = (colour - Vec3(repeating: 0.5)) / SphericalHarmonics.c0
        c.append(position: p, scale: s, rotation: q, opacity: opacity, dc: dc,
                 rest: rest ?? [Float](repeating: 0, count: SplatCloud.restCount(degree: degree) * 3))
        return GaussianMoments(c, 0)
    }

    /// The reference: both splats projected along `d` with a basis and covariances of its own
    /// (rotation matrices built from the quaternions), composited on a 2-D grid — the nearer adds
    /// α·G, the farther (1 − α_near·G_near)·α·G — and each one's total returned as a share.
    static func referenceShares(_ a: (p: Vec3, s: Vec3, q: Quaternion, o: Float), _ b: (p: Vec3, s: Vec3, q: Quaternion, o: Float),
                                _ d: SIMD3<Double>) -> (Double, Double) {
        let up = abs(d.z) < 0.9 ? SIMD3<Double>(0, 0, 1) : SIMD3<Double>(0, 1, 0)
        func cross(_ x: SIMD3<Double>, _ y: SIMD3<Double>) -> SIMD3<Double> {
            SIMD3(x.y * y.z - x.z * y.y, x.z * y.x - x.x * y.z, x.x * y.y - x.y * y.x)
        }
        var e1 = cross(up, d); e1 /= (e1 * e1).sum().squareRoot()
        let e2 = cross(d, e1)
        struct Flat { var mean: SIMD2<Double>; var inv: (Double, Double, Double); var depth: Double; var opacity: Double }
        func flat(_ s: (p: Vec3, s: Vec3, q: Quaternion, o: Float)) -> Flat {
            let q = s.q.normalized
            let (w, x, y, z) = (Double(q.w), Double(q.x), Double(q.y), Double(q.z))
            // Columns: the splat's axes in model space.
            let axes = [SIMD3(1 - 2 * (y * y + z * z), 2 * (x * y + w * z), 2 * (x * z - w * y)),
                        SIMD3(2 * (x * y - w * z), 1 - 2 * (x * x + z * z), 2 * (y * z + w * x)),
                        SIMD3(2 * (x * z + w * y), 2 * (y * z - w * x), 1 - 2 * (x * x + y * y))]
            let sc = [Double(s.s.x), Double(s.s.y), Double(s.s.z)]
            var m = (0.0, 0.0, 0.0)
            for k in 0..<3 {
                let pu = (axes[k] * e1).sum() * sc[k], pw = (axes[k] * e2).sum() * sc[k]
                m.0 += pu * pu; m.1 += pu * pw; m.2 += pw * pw
            }
            let det = m.0 * m.2 - m.1 * m.1
            let p = SIMD3<Double>(Double(s.p.x), Double(s.p.y), Double(s.p.z))
            return Flat(mean: SIMD2((p * e1).sum(), (p * e2).sum()), inv: (m.2 / det, -m.1 / det, m.0 / det),
                        depth: (p * d).sum(), opacity: Double(s.o))
        }
        let fa = flat(a), fb = flat(b)
        let aNear = fa.depth <= fb.depth
        let near = aNear ? fa : fb, far = aNear ? fb : fa
        func g(_ f: Flat, _ x: SIMD2<Double>) -> Double {
            let v = x - f.mean
            return exp(-0.5 * (f.inv.0 * v.x * v.x + 2 * f.inv.1 * v.x * v.y + f.inv.2 * v.y * v.y))
        }
        let extent = 0.8, n = 800, step = 2 * extent / Double(n)
        var sumNear = 0.0, sumFar = 0.0
        for i in 0..<n {
            for j in 0..<n {
                let x = SIMD2(-extent + (Double(i) + 0.5) * step, -extent + (Double(j) + 0.5) * step)
                let an = near.opacity * g(near, x)
                sumNear += an
                sumFar += (1 - an) * far.opacity * g(far, x)
            }
        }
        let t = sumNear + sumFar
        return aNear ? (sumNear / t, sumFar / t) : (sumFar / t, sumNear / t)
    }

    @Test("each child's share from a direction is that of the two Gaussians composited on a grid")
    func sharesMatchCompositing() {
        let a = (p: Vec3(0.02, -0.01, 0.03), s: Vec3(0.06, 0.03, 0.01), q: Quaternion(w: 0.9, x: 0.2, y: -0.3, z: 0.1), o: Float(0.8))
        let b = (p: Vec3(-0.03, 0.02, -0.02), s: Vec3(0.04, 0.05, 0.02), q: Quaternion(w: 0.5, x: -0.4, y: 0.6, z: 0.2), o: Float(0.6))
        let ga = Self.splat(a.p, a.s, a.q, a.o, colour: Vec3(1, 0, 0)), gb = Self.splat(b.p, b.s, b.q, b.o, colour: Vec3(0, 0, 1))
        for j in stride(from: 0, to: ViewFittedColour.directionCount, by: 7) {
            let fast = ViewFittedColour.shares(ga, gb, direction: j)
            let slow = Self.referenceShares(a, b, ViewFittedColour.directions[j])
            #expect(abs(fast.a + fast.b - 1) < 1e-12)
            #expect(abs(fast.a - slow.0) < 2e-3, "direction \(j): \(fast.a) against the grid's \(slow.0)")
        }
    }

    @Test("two splats of one colour merge to that colour, view-dependent terms included")
    func sharedColourKept() {
        // Degree 2, colours within 0…1 from every direction (no clamping), so the fit is exact.
        let rest: [Float] = (0..<24).map { Float(($0 * 7) % 11) * 0.01 - 0.05 }
        let a = Self.splat(Vec3(0, 0, 0), Vec3(0.05, 0.02, 0.01), Quaternion(w: 1, x: 0, y: 0, z: 0), 0.7,
                           colour: Vec3(0.5, 0.4, 0.6), degree: 2, rest: rest)
        let b = Self.splat(Vec3(0.04, 0.01, 0), Vec3(0.03, 0.03, 0.01), Quaternion(w: 0.8, x: 0.6, y: 0, z: 0), 0.9,
                           colour: Vec3(0.5, 0.4, 0.6), degree: 2, rest: rest)
        let m = ViewFittedColour.fit(a, b)
        #expect(m.count == a.colour.count)
        for k in m.indices { #expect(abs(m[k] - a.colour[k]) < 1e-4, "coefficient \(k): \(m[k]) against \(a.colour[k])") }
    }

    @Test("a two-sided wall keeps its front colour in front and its back colour behind")
    func wallKeepsBothSides() {
        // Two opaque discs facing ±z, 2 mm apart: red on the +z side, blue on the −z side.
        let flat = Vec3(0.1, 0.1, 0.0005), q = Quaternion(w: 1, x: 0, y: 0, z: 0)
        let red = Self.splat(Vec3(0, 0, 0.001), flat, q, 0.95, colour: Vec3(1, 0, 0), degree: 1)
        let blue = Self.splat(Vec3(0, 0, -0.001), flat, q, 0.95, colour: Vec3(0, 0, 1), degree: 1)
        let m = ViewFittedColour.fit(red, blue)
        func seen(_ d: SIMD3<Double>) -> (r: Double, b: Double) {
            let y = SphericalHarmonics.basis(d)
            func ch(_ c: Int) -> Double { (0..<4).reduce(0.5) { $0 + y[$1] * Double(m[$1 * 3 + c]) } }
            return (ch(0), ch(2))
        }
        // An eye on the +z side looks along −z and sees the red side; one on the −z side the blue.
        let fromFront = seen(SIMD3(0, 0, -1)), fromBack = seen(SIMD3(0, 0, 1))
        #expect(fromFront.r > 0.6 && fromFront.b < 0.4, "from the red side: \(fromFront)")
        #expect(fromBack.b > 0.6 && fromBack.r < 0.4, "from the blue side: \(fromBack)")
        // Averaging the coefficients would show the same purple (0.5, 0, 0.5) from both sides.
    }
}
