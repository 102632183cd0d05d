// SplatVisibility — each block's visible area against a slow per-pixel reference, and against
// true answers: an opaque wall's projected area, and nothing for a block hidden behind it.
import Foundation
import RenderCore
import SplatRender
import Testing
import TestSupport

struct SplatVisibilityTests {
    /// The obvious computation: every splat projected by the reference renderer (with the
    /// coverage-keeping opacity), sorted by depth, every full-resolution pixel composited front
    /// to back, α·T added to the splat's block.
    static func referenceVisibleArea(_ clouds: [SplatCloud], camera: Camera) -> [Float] {
        var splats: [(block: Int, p: ReferenceSplatRenderer.Projected)] = []
        for (b, cloud) in clouds.enumerated() {
            for i in 0..<cloud.count {
                if let p = ReferenceSplatRenderer.project(cloud, i, camera: camera, antialias: true) { splats.append((b, p)) }
            }
        }
        splats.sort { $0.p.depth < $1.p.depth }    // stable: ties keep block order
        var area = [Float](repeating: 0, count: clouds.count)
        for y in 0..<camera.height {
            for x in 0..<camera.width {
                var T: Float = 1
                for (b, p) in splats where p.touches(x, y) {
                    let dx = Float(x) + 0.5 - p.mean.x, dy = Float(y) + 0.5 - p.mean.y
                    let power = -0.5 * (p.conic.x * dx * dx + 2 * p.conic.y * dx * dy + p.conic.z * dy * dy)
                    guard power <= 0 else { continue }
                    let alpha = min(0.99, p.opacity * exp(power))
                    guard alpha >= 1.0 / 255 else { continue }
                    area[b] += alpha * T
                    T *= 1 - alpha
                    if T < 1.0 / 255 { break }
                }
            }
        }
        return area
    }

    /// A random cluster of `count` splats around `centre` (deterministic).
    static func cluster(_ count: Int, centre: Vec3, spread: Float, size: Float, opacity: Float, seed: UInt64) -> SplatCloud {
        var rng = SplitMix64(seed: seed)
        func unit() -> Float { Float.random(in: 0..<1, using: &rng) }
        var c = SplatCloud(shDegree: 0)
        for _ in 0..<count {
            let p = centre + spread * Vec3(unit() * 2 - 1, unit() * 2 - 1, unit() * 2 - 1)
            let s = size * Vec3(0.5 + unit(), 0.5 + unit(), 0.2 + unit())
            let q = Quaternion(w: 1, x: unit() - 0.5, y: unit() - 0.5, z: unit() - 0.5).normalized
            c.append(position: p, scale: s, rotation: q, opacity: opacity * (0.5 + 0.5 * unit()), dc: Vec3(0.2, 0.4, 0.6))
        }
        return c
    }

    /// An opaque wall of flat splats on a grid covering x, y ∈ [−h, h] at depth z.
    static func wall(halfSize h: Float, z: Float, step: Float) -> SplatCloud {
        var c = SplatCloud(shDegree: 0)
        let n = Int((2 * h / step).rounded())
        for j in 0..<n {
            for i in 0..<n {
                c.append(position: Vec3(-h + (Float(i) + 0.5) * step, -h + (Float(j) + 0.5) * step, z),
                         scale: Vec3(step * 0.7, step * 0.7, step * 0.01), rotation: .identity, opacity: 0.99, dc: .zero)
            }
        }
        return c
    }

    static let camera = SplatTestHelpers.lookAtCamera(eye: Vec3(0.3, 0.2, 4), target: .zero, width: 160, height: 120)

    @Test func fullResolutionMatchesTheReference() {
        let clouds = [Self.cluster(300, centre: Vec3(-0.4, 0, 0.5), spread: 0.5, size: 0.05, opacity: 0.7, seed: 1),
                      Self.cluster(300, centre: Vec3(0.3, 0.1, -0.3), spread: 0.7, size: 0.08, opacity: 0.9, seed: 2),
                      Self.cluster(200, centre: Vec3(0, -0.2, 0), spread: 0.3, size: 0.02, opacity: 0.5, seed: 3)]
        let expected = Self.referenceVisibleArea(clouds, camera: Self.camera)
        var got: [Float] = []
        SplatVisibility(scale: 1).measure(clouds.map { SplatRenderer.prepare($0) }, camera: Self.camera, into: &got)
        let total = expected.reduce(0, +)
        print("visible area, reference \(expected) vs scale 1 \(got)")
        #expect(total > 1000, "the clusters must cover the image: \(expected)")
        for b in clouds.indices {
            #expect(abs(got[b] - expected[b]) <= 0.02 * total, "block \(b): \(got[b]) against \(expected[b]) px²")
        }
    }

    /// The work is split in fixed bands (projection runs, tile rows) whatever the thread count,
    /// so two threads give the very same areas as one — and as the reference, at full resolution.
    @Test func twoThreadsMeasureExactlyWhatOneDoes() {
        let clouds: [SplatCloud] = (0..<6).map { (k: Int) -> SplatCloud in
            let f = Float(k)
            let centre = Vec3(Float(k % 3) * 0.5 - 0.5, Float(k / 3) * 0.6 - 0.3, -0.2 * f)
            return Self.cluster(500, centre: centre, spread: 0.5, size: 0.03 + 0.01 * f, opacity: 0.6 + 0.05 * f, seed: UInt64(10 + k))
        }
        let prepared = clouds.map { SplatRenderer.prepare($0) }
        for scale in [1, 8] {
            var one: [Float] = [], two: [Float] = []
            SplatVisibility(scale: scale, threads: 1).measure(prepared, camera: Self.camera, into: &one)
            let twoThreads = SplatVisibility(scale: scale, threads: 2)
            #expect(twoThreads.threads == 2)
            for _ in 0..<3 { twoThreads.measure(prepared, camera: Self.camera, into: &two) }   // buffers reused
            #expect(one == two, "scale \(scale): \(one) against \(two)")
            #expect(one.reduce(0, +) > 1000, "the clusters must cover the image: \(one)")
        }
        let expected = Self.referenceVisibleArea(clouds, camera: Self.camera)
        var got: [Float] = []
        SplatVisibility(scale: 1, threads: 2).measure(prepared, camera: Self.camera, into: &got)
        let total = expected.reduce(0, +)
        for b in clouds.indices {
            #expect(abs(got[b] - expected[b]) <= 0.02 * total, "block \(b): \(got[b]) against \(expected[b]) px²")
        }
    }

    @Test func lowResolutionIsCloseToTheReference() {
        let clouds = [Self.cluster(400, centre: Vec3(-0.5, 0, 0.5), spread: 0.5, size: 0.04, opacity: 0.7, seed: 4),
                      Self.cluster(400, centre: Vec3(0.4, 0.1, -0.4), spread: 0.6, size: 0.06, opacity: 0.9, seed: 5)]
        let expected = Self.referenceVisibleArea(clouds, camera: Self.camera)
        let total = expected.reduce(0, +)
        for scale in [4, 8] {
            var got: [Float] = []
            SplatVisibility(scale: scale).measure(clouds.map { SplatRenderer.prepare($0) }, camera: Self.camera, into: &got)
            print("visible area, reference \(expected) vs scale \(scale) \(got)")
            for b in clouds.indices {
                #expect(abs(got[b] - expected[b]) <= 0.1 * total, "scale \(scale), block \(b): \(got[b]) against \(expected[b]) px²")
            }
        }
    }

    @Test func aWallHidesWhatIsBehindItAndShowsItsOwnArea() {
        // The front wall spans 1 × 1 m, 4 m from the eye; the back wall (0.6 × 0.6 m, 1 m further) lies wholly behind it.
        let front = Self.wall(halfSize: 0.5, z: 0, step: 0.02), back = Self.wall(halfSize: 0.3, z: -1, step: 0.02)
        let camera = SplatTestHelpers.lookAtCamera(eye: Vec3(0, 0, 4), target: .zero, width: 320, height: 240)
        // The true answer: the wall's square projects to (f · 1 m / 4 m)² pixels.
        let f = Float(camera.height) / 2 * camera.projection[1, 1]
        let side = f * 1 / 4
        // At 1/8 resolution the dilation (0.3 coarse px², σ ≈ 4 camera px) blurs the wall's edge
        // outwards (+10 % here, where the perimeter is long beside the area), and the wall's
        // ~80 faint splats per coarse pixel (coverage kept by lowering each one's opacity) stack
        // to T ≈ e^−Σα rather than 0, so ~2 % of what lies behind shows through.
        for (scale, areaError, leak) in [(1, Float(0.05), Float(0.01)), (8, 0.12, 0.02)] {
            var got: [Float] = []
            SplatVisibility(scale: scale).measure([front, back].map { SplatRenderer.prepare($0) }, camera: camera, into: &got)
            print("wall: visible \(got) px², projected square \(side * side) px² (scale \(scale))")
            #expect(abs(got[0] - side * side) <= areaError * side * side, "scale \(scale): front wall \(got[0]) px², expected \(side * side)")
            #expect(got[1] <= leak * got[0], "scale \(scale): the hidden wall shows \(got[1]) px²")
        }
        // Behind the eye, nothing: every block 0.
        let behind = SplatTestHelpers.lookAtCamera(eye: Vec3(0, 0, 4), target: Vec3(0, 0, 8))
        var none: [Float] = [1, 1]
        SplatVisibility().measure([front, back].map { SplatRenderer.prepare($0) }, camera: behind, into: &none)
        #expect(none == [0, 0])
    }
}
