// The fast renderer against the slow reference on synthetic scenes (image contract).
import Foundation
import Procedural
import RenderCore
@testable import SplatRender
import Testing
import TestSupport

@Suite struct ReferenceMatchTests {
    typealias H = SplatTestHelpers

    @Test func singleGaussianFootprintAndCentreColour() throws {
        // An isotropic splat straight ahead whose mean falls on the centre of pixel (80, 60).
        var cam = H.lookAtCamera(eye: Vec3(0, 0, 2), target: Vec3(0, 0, 0))
        cam.background = Vec3(0, 0, 0)
        let d: Float = 2, fx = Float(cam.width) / 2 * cam.projection[0, 0], fy = Float(cam.height) / 2 * cam.projection[1, 1]
        let p = Vec3(0.5 * d / fx, -0.5 * d / fy, 0)
        let sigma: Float = 0.03
        let cloud = H.single(position: p, scale: Vec3(repeating: sigma), opacity: 0.9, color: Vec3(0.8, 0.4, 0.2))
        let proj = try #require(ReferenceSplatRenderer.project(cloud, 0, camera: cam))
        #expect(abs(proj.mean.x - 80.5) < 1e-3 && abs(proj.mean.y - 60.5) < 1e-3)
        // Analytic footprint: cov2D = (f·σ/d)² + 0.3 (isotropic), λmax = a + √0.1.
        let a = (fx * sigma / d) * (fx * sigma / d) + 0.3
        let r = (3 * (a + Float(0.1).squareRoot()).squareRoot()).rounded(.up)
        #expect(abs(proj.radius - r) < 1e-6)
        let renderer = SplatRenderer(threads: 2)
        let fb = Framebuffer(width: cam.width, height: cam.height)
        renderer.render(SplatRenderer.prepare(cloud), camera: cam, into: fb)
        let s = renderer.projected.base[0]
        // The pixels the splat may touch are the square of half-size r around the mean; the
        // fast renderer's rectangle is that square tightened to where alpha can reach 1/255.
        let xs = (0..<cam.width).filter { abs(Float($0) + 0.5 - proj.mean.x) <= r }
        let ys = (0..<cam.height).filter { abs(Float($0) + 0.5 - proj.mean.y) <= r }
        #expect(xs.count == 2 * Int(r) + 1 && ys.count == 2 * Int(r) + 1)  // mean on a pixel centre
        #expect(Int(s.x0) >= xs.first! && Int(s.x1) <= xs.last! && Int(s.y0) >= ys.first! && Int(s.y1) <= ys.last!)
        // Every pixel where the reference gives alpha ≥ 1/255 lies inside that rectangle.
        for y in ys { for x in xs {
            let dx = Float(x) + 0.5 - proj.mean.x, dy = Float(y) + 0.5 - proj.mean.y
            let power = -0.5 * (proj.conic.x * dx * dx + proj.conic.z * dy * dy) - proj.conic.y * dx * dy
            if proj.opacity * exp(power) >= 1.0 / 255.0 {
                #expect(x >= Int(s.x0) && x <= Int(s.x1) && y >= Int(s.y0) && y <= Int(s.y1))
            }
        } }
        for y in 0..<cam.height {
            for x in 0..<cam.width where !(xs.contains(x) && ys.contains(y)) {
                #expect(fb.pixel(x: x, y: y) == 0xFF00_0000, "pixel (\(x), \(y)) outside the square was touched")
            }
        }
        // Centre colour: α = 0.9 (power 0), over a black background.
        let centre = PackedColor.channels(fb.pixel(x: 80, y: 60))
        let expected = Vec3(0.8, 0.4, 0.2) * 0.9 * 255
        #expect(abs(Float(centre[0]) - expected.x) <= 1 && abs(Float(centre[1]) - expected.y) <= 1
                && abs(Float(centre[2]) - expected.z) <= 1)
        #expect(abs(fb.depth[60 * cam.width + 80] - 2) < 1e-5)
        #expect(fb.depth[0] == .infinity)
        H.expectMatch(cloud, camera: cam, name: "single", minCovered: 5)
    }

    @Test(arguments: [0, 1, 2, 3])
    func shDegreeAndViewDependence(degree: Int) throws {
        let cloud = SplatSceneGenerator.object(count: 1500, seed: 7, shDegree: degree)
        let camA = H.lookAtCamera(eye: Vec3(0.2, 0.4, 1.3), target: Vec3(0, -0.1, 0))
        let camB = H.lookAtCamera(eye: Vec3(-1.1, 0.3, 0.6), target: Vec3(0, -0.1, 0))
        H.expectMatch(cloud, camera: camA, name: "sh\(degree)-a")
        H.expectMatch(cloud, camera: camB, name: "sh\(degree)-b")
        // One splat seen from two directions changes colour only when degree > 0.
        var rest = [Float](repeating: 0, count: SplatCloud.restCount(degree: degree) * 3)
        for k in 0..<rest.count { rest[k] = Float((k * 7) % 5) * 0.08 - 0.15 }
        let one = H.single(position: .zero, scale: Vec3(repeating: 0.05), opacity: 0.95, color: Vec3(0.5, 0.5, 0.5),
                           shDegree: degree, rest: rest)
        func centre(_ eye: Vec3) -> UInt32 {
            let cam = H.lookAtCamera(eye: eye, target: .zero, width: 33, height: 33)
            let fb = Framebuffer(width: 33, height: 33)
            SplatRenderer(threads: 1).render(one, camera: cam, into: fb)
            return fb.pixel(x: 16, y: 16)
        }
        let c1 = centre(Vec3(0, 0, 1)), c2 = centre(Vec3(0.8, 0.3, -0.5))
        #expect((c1 == c2) == (degree == 0))
    }

    /// A degree-4 cloud (files keep band 4) renders bands 0–3: exactly the picture of the same
    /// cloud cut to degree 3, in both renderers, whatever band 4 holds.
    @Test func degree4RendersBands0To3() throws {
        let d3 = SplatSceneGenerator.object(count: 1200, seed: 11, shDegree: 3)
        var rest4: [Float] = []
        rest4.reserveCapacity(d3.count * 24 * 3)
        for i in 0..<d3.count {
            rest4 += d3.shRest[(i * 45)..<(i * 45 + 45)]
            rest4 += (0..<27).map { Float(($0 + i) % 7) * 0.3 - 0.9 }        // large band-4 terms
        }
        let d4 = SplatCloud(positions: d3.positions, scales: d3.scales, rotations: d3.rotations, opacities: d3.opacities,
                            dc: d3.dc, shDegree: 4, shRest: rest4)
        #expect(SplatRenderer.prepare(d4).shDegree == 3 && SplatRenderer.prepare(d4).restCount == 15)
        let cam = H.lookAtCamera(eye: Vec3(-0.9, 0.4, 0.9), target: Vec3(0, -0.1, 0))
        let f3 = Framebuffer(width: cam.width, height: cam.height), f4 = Framebuffer(width: cam.width, height: cam.height)
        SplatRenderer(threads: 2).render(SplatRenderer.prepare(d3), camera: cam, into: f3)
        SplatRenderer(threads: 2).render(SplatRenderer.prepare(d4), camera: cam, into: f4)
        #expect(f3.colorArray == f4.colorArray)
        let r3 = Framebuffer(width: cam.width, height: cam.height), r4 = Framebuffer(width: cam.width, height: cam.height)
        ReferenceSplatRenderer.render(d3, camera: cam, into: r3)
        ReferenceSplatRenderer.render(d4, camera: cam, into: r4)
        #expect(r3.colorArray == r4.colorArray)
        H.expectMatch(d4, camera: cam, name: "sh4")
    }

    @Test func offAxisCameras() {
        // The object behind a 0.6 × 0.34 m screen, seen from several head positions.
        var cloud = SplatSceneGenerator.object(count: 2000, seed: 3)
        for i in 0..<cloud.count { cloud.positions[i] = cloud.positions[i] * 0.4 + Vec3(0, 0, -0.35) }
        let screen = ScreenGeometry(width: 0.6, height: 0.34)
        for (k, eye) in [Vec3(0, 0, 0.6), Vec3(0.25, 0.1, 0.5), Vec3(-0.3, -0.15, 0.4)].enumerated() {
            let cam = OffAxisFrustum.camera(eye: eye, screen: screen, width: 160, height: 90,
                                            background: Vec3(0.05, 0.05, 0.1))
            H.expectMatch(cloud, camera: cam, name: "offaxis\(k)")
        }
    }

    @Test func nearPlaneCulling() throws {
        // Splats before, at and behind the near plane (0.5 m).
        var cloud = SplatCloud(shDegree: 0)
        for (k, z) in [Float(1.6), 1.51, 1.49, 1.2, 0.8].enumerated() {
            cloud.append(position: Vec3(Float(k) * 0.03 - 0.06, 0, z), scale: Vec3(repeating: 0.05), rotation: .identity,
                         opacity: 0.8, dc: SplatCloud.dcFromColor(Vec3(Float(k) / 5, 0.5, 1 - Float(k) / 5)))
        }
        let cam = H.lookAtCamera(eye: Vec3(0, 0, 2), target: .zero, near: 0.5)
        #expect(ReferenceSplatRenderer.project(cloud, 0, camera: cam) == nil)       // d = 0.4
        #expect(ReferenceSplatRenderer.project(cloud, 1, camera: cam) == nil)       // d = 0.49
        #expect(ReferenceSplatRenderer.project(cloud, 2, camera: cam) != nil)       // d = 0.51
        let renderer = SplatRenderer(threads: 2)
        let fb = Framebuffer(width: cam.width, height: cam.height)
        let times = renderer.render(cloud, camera: cam, into: fb)
        #expect(times.visibleSplats == 3)
        H.expectMatch(cloud, camera: cam, name: "near")
    }

    @Test func veryLargeAndVeryThinSplats() {
        var cloud = SplatCloud(shDegree: 0)
        // A splat much larger than the view, close to the camera.
        cloud.append(position: Vec3(0.1, 0, 0), scale: Vec3(3, 2, 0.01), rotation: Quaternion(angle: 0.3, axis: Vec3(0, 0, 1)),
                     opacity: 0.5, dc: SplatCloud.dcFromColor(Vec3(0.9, 0.2, 0.2)))
        // Needles in several orientations, including seen end-on.
        for k in 0..<12 {
            let axis = Vec3(Float(k % 3), Float((k + 1) % 2), 1).normalized
            cloud.append(position: Vec3(Float(k % 4) * 0.3 - 0.45, Float(k / 4) * 0.25 - 0.25, 0.3),
                         scale: Vec3(0.4, 0.0005, 0.0005), rotation: Quaternion(angle: Float(k) * 0.7, axis: axis),
                         opacity: 0.95, dc: SplatCloud.dcFromColor(Vec3(0.2, 0.9, Float(k) / 12)))
        }
        cloud.append(position: Vec3(0, 0, 0.5), scale: Vec3(0.001, 0.001, 0.6), rotation: .identity,
                     opacity: 0.9, dc: SplatCloud.dcFromColor(Vec3(1, 1, 0)))
        let cam = H.lookAtCamera(eye: Vec3(0, 0, 1.5), target: .zero)
        H.expectMatch(cloud, camera: cam, name: "large-thin")
        let side = H.lookAtCamera(eye: Vec3(1.2, 0.2, 1.0), target: .zero)
        H.expectMatch(cloud, camera: side, name: "large-thin-side")
    }

    @Test func manyOverlappingSplatsTerminateEarly() {
        // 300 nearly opaque splats stacked along the view axis: pixels finish early.
        var cloud = SplatCloud(shDegree: 0)
        var rng = SeededRandom(seed: 5)
        for k in 0..<300 {
            cloud.append(position: Vec3(rng.uniform() * 0.4 - 0.2, rng.uniform() * 0.3 - 0.15, -Float(k) * 0.002),
                         scale: Vec3(0.15, 0.1, 0.01), rotation: Quaternion(angle: rng.uniform() * 3, axis: Vec3(0, 0, 1)),
                         opacity: 0.6 + 0.39 * rng.uniform(),
                         dc: SplatCloud.dcFromColor(Vec3(rng.uniform(), rng.uniform(), rng.uniform())))
        }
        // Exact depth ties resolve by index.
        cloud.positions[10] = cloud.positions[11]
        let cam = H.lookAtCamera(eye: Vec3(0, 0, 1.5), target: .zero)
        H.expectMatch(cloud, camera: cam, name: "overlap")
    }

    @Test func threadCountDoesNotChangeBytes() {
        let cloud = SplatSceneGenerator.object(count: 4000, seed: 11)
        let cam = H.lookAtCamera(eye: Vec3(0.3, 0.5, 1.2), target: Vec3(0, -0.1, 0), width: 203, height: 117)
        let prepared = SplatRenderer.prepare(cloud)
        var images: [([UInt32], [Float])] = []
        for threads in [1, 2, 3] {
            let fb = Framebuffer(width: cam.width, height: cam.height)
            let r = SplatRenderer(threads: threads)
            r.render(prepared, camera: cam, into: fb)
            r.render(prepared, camera: cam, into: fb)  // reused buffers give the same result
            images.append((fb.colorArray, fb.depthArray))
        }
        #expect(images[0].0 == images[1].0 && images[0].0 == images[2].0)
        #expect(images[0].1 == images[1].1 && images[0].1 == images[2].1)
        H.expectMatch(cloud, camera: cam, name: "odd-size", threads: 3)
    }

    @Test func roomScene() {
        let cloud = SplatSceneGenerator.room(count: 6000, seed: 2)
        H.expectMatch(cloud, camera: SplatSceneGenerator.roomCamera(width: 160, height: 90), name: "room")
    }

    @Test func antialiasOption() {
        let cloud = SplatSceneGenerator.object(count: 1500, seed: 4)
        let cam = H.lookAtCamera(eye: Vec3(0.2, 0.4, 1.3), target: Vec3(0, -0.1, 0))
        H.expectMatch(cloud, camera: cam, name: "antialias", antialias: true)
    }

    @Test func depthTestCompositesOverExistingImage() {
        let cloud = SplatSceneGenerator.object(count: 2000, seed: 9)
        let cam = H.lookAtCamera(eye: Vec3(0.2, 0.4, 1.3), target: Vec3(0, -0.1, 0))
        // A "mesh" drawn first: a slanted depth ramp through the object and a colour gradient.
        H.expectMatch(cloud, camera: cam, name: "depthtest", prefill: { fb in
            for y in 0..<fb.height {
                for x in 0..<fb.width {
                    let p = y * fb.width + x
                    fb.color[p] = PackedColor.pack(r: UInt8(x % 256), g: UInt8((y * 2) % 256), b: 90)
                    fb.depth[p] = x < 20 ? .infinity : 1.0 + 0.6 * Float(x) / Float(fb.width)
                }
            }
        })
    }

    @Test func fastExpIsAccurate() {
        var worst: Double = 0
        var x: Float = -20
        while x <= 0 {
            let v = SIMD8<Float>(repeating: x) + SIMD8<Float>(0, 1e-3, 2e-3, 3e-3, 4e-3, 5e-3, 6e-3, 7e-3)
            let e = fastExp(v.replacing(with: 0, where: v .> 0))
            for l in 0..<8 {
                let t = Foundation.exp(Double(min(v[l], 0)))
                worst = max(worst, abs(Double(e[l]) - t) / t)
            }
            x += 0.0173
        }
        #expect(worst < 8e-5, "max relative error \(worst)")
    }
}
