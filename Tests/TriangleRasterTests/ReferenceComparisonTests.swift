import Procedural
import RenderCore
import TestSupport
import Testing
import TriangleRaster

@Suite("Fast rasterizer vs the ray-casting reference")
struct ReferenceComparisonTests {
    static let screen = ScreenGeometry(width: 0.6, height: 0.34)

    static func compare(_ mesh: TriangleMesh, camera: Camera, settings: RasterSettings = RasterSettings(),
                        name: String, minPSNR: Double, maxDifferingFraction: Double) {
        let fast = TriangleRasterizer(threads: 2, settings: settings)
        let fb = Framebuffer(width: camera.width, height: camera.height)
        fb.clear(background: camera.background)
        fast.draw(mesh, camera: camera, into: fb)
        let ref = ReferenceRasterizer.render(mesh, camera: camera, cullBackFaces: settings.cullBackFaces)
        let tolerance = 12
        let image = fb.image()
        let cmp = ImageComparison(image, ref.image, tolerance: tolerance)
        let fraction = Double(cmp.differingPixels) / Double(fb.pixelCount)
        let ok = cmp.psnr >= minPSNR && fraction <= maxDifferingFraction
        if !ok { ImageComparison.writeFailureImages(name: name, actual: image, expected: ref.image) }
        #expect(ok, "\(name): \(cmp)")
        // Depth agrees wherever both drew the same surface: pixels both covered whose colours
        // agree within the tolerance (a differing pixel, e.g. on a silhouette, may show another
        // surface in each renderer; the colour check above bounds how many there are).
        var worst: Float = 0
        var bothDrew = 0, compared = 0
        for i in 0..<fb.pixelCount where fb.depth[i].isFinite && ref.depth[i].isFinite {
            bothDrew += 1
            let a = PackedColor.channels(image.pixels[i]), b = PackedColor.channels(ref.image.pixels[i])
            guard (0..<3).allSatisfy({ abs(Int(a[$0]) - Int(b[$0])) <= tolerance }) else { continue }
            compared += 1
            worst = max(worst, abs(fb.depth[i] - ref.depth[i]) / ref.depth[i])
        }
        #expect(bothDrew == 0 || compared > 0, "\(name): no pixel both drew has matching colours (\(bothDrew) both drew)")
        #expect(worst < 0.05, "\(name): relative depth error \(worst) over \(compared) of the \(bothDrew) pixels both drew")
    }

    @Test("cube room at several eye positions", arguments: [Vec3(0, 0, 0.6), Vec3(0.25, 0.1, 0.4), Vec3(-0.3, -0.15, 0.9)])
    func cubeRoom(eye: Vec3) {
        // Small pictures, so every wall is magnified and both renderers sample mip level 0.
        var pictures: [CubeRoom.Wall: RGBAImage] = [:]
        for (i, wall) in CubeRoom.Wall.allCases.enumerated() {
            pictures[wall] = TextureGenerator.checker(size: 8, cells: 4, a: 0xFF10_2030 &+ UInt32(i * 40), b: 0xFFE0_D0C0)
        }
        let room = CubeRoom(screen: Self.screen, pictures: pictures, showTargets: false)
        let cam = OffAxisFrustum.camera(eye: eye, screen: Self.screen, width: 96, height: 54)
        Self.compare(room.mesh(), camera: cam, name: "room-\(eye.x)-\(eye.y)-\(eye.z)", minPSNR: 30, maxDifferingFraction: 0.1)
    }

    @Test("a lit sphere, culled and not")
    func litSphere() {
        let mesh = MeshGenerator.sphere(center: Vec3(0, 0, -0.3), radius: 0.12, segments: 24, rings: 13)
        let cam = OffAxisFrustum.camera(eye: Vec3(0.05, 0.02, 0.6), screen: Self.screen, width: 96, height: 54)
        for cull in [false, true] {
            Self.compare(mesh, camera: cam, settings: RasterSettings(cullBackFaces: cull), name: "sphere-\(cull)",
                         minPSNR: 30, maxDifferingFraction: 0.05)
        }
    }

    @Test("triangles crossing the near plane are clipped, not dropped or wrapped")
    func nearPlaneClipping() {
        // A floor that runs from behind the eye to far in front: it must be clipped at the near plane.
        let floor = MeshGenerator.quad(origin: Vec3(-2, -0.2, 2), uAxis: Vec3(4, 0, 0), vAxis: Vec3(0, 0, -6),
                                       material: .init(texture: Texture(TextureGenerator.checker(size: 64, cells: 8, a: 0xFF20_2020, b: 0xFFE0_E0E0)), lit: false))
        let cam = OffAxisFrustum.camera(eye: Vec3(0, 0, 0.6), screen: Self.screen, width: 96, height: 54, near: 0.05)
        Self.compare(floor, camera: cam, name: "near-clip", minPSNR: 18, maxDifferingFraction: 0.2)
        // And the clipped result covers the lower half of the image.
        let fb = Framebuffer(width: 96, height: 54)
        fb.clear(color: 0)
        TriangleRasterizer(threads: 1).draw(floor, camera: cam, into: fb)
        #expect(fb.depth[53 * 96 + 48].isFinite && !fb.depth[0].isFinite)
    }

    @Test("perspective-correct texture coordinates on a tilted plane match the analytic value")
    func perspectiveCorrectUV() {
        // A plane from z = −0.1 to z = −2 carrying u as red and v as green (unlit vertex colours).
        let a = Vec3(-0.5, -0.2, -0.1), b = Vec3(0.5, -0.2, -0.1), c = Vec3(0.5, -0.2, -2), d = Vec3(-0.5, -0.2, -2)
        let mesh = TriangleMesh(positions: [a, b, c, d], indices: [0, 1, 2, 0, 2, 3],
                                colors: [Vec4(0, 0, 0, 1), Vec4(1, 0, 0, 1), Vec4(1, 1, 0, 1), Vec4(0, 1, 0, 1)],
                                materials: [.init(lit: false)])
        let cam = OffAxisFrustum.camera(eye: Vec3(0, 0, 0.6), screen: Self.screen, width: 120, height: 68)
        let fb = Framebuffer(width: 120, height: 68)
        fb.clear(color: 0)
        TriangleRasterizer(threads: 2).draw(mesh, camera: cam, into: fb)
        guard let invVP = cam.viewProjection.inverse else { Issue.record("singular"); return }
        var checked = 0, worst: Float = 0
        for y in 0..<68 {
            for x in 0..<120 where fb.depth[y * 120 + x].isFinite {
                // Analytic: intersect the pixel-centre ray with the plane y = −0.2.
                let ndc = Vec4((Float(x) + 0.5) / 60 - 1, 1 - (Float(y) + 0.5) / 34, 0.5, 1)
                let p4 = invVP * ndc
                let p = Vec3(p4.x, p4.y, p4.z) / p4.w
                let eye = Vec3(0, 0, 0.6)
                let t = (-0.2 - eye.y) / (p.y - eye.y)
                let hit = eye + (p - eye) * t
                let u = (hit.x + 0.5), v = (-0.1 - hit.z) / 1.9
                guard u > 0.02, u < 0.98, v > 0.02, v < 0.98 else { continue }
                let got = PackedColor.unpack(fb.pixel(x: x, y: y))
                worst = max(worst, abs(got.x - u), abs(got.y - v))
                checked += 1
            }
        }
        #expect(checked > 500)
        #expect(worst <= 1.5 / 255, "largest UV error \(worst)")
    }

    @Test("one and two threads give identical images")
    func threadCountInvariance() {
        let room = CubeRoom(screen: Self.screen).mesh()
        let cam = OffAxisFrustum.camera(eye: Vec3(0.1, 0.05, 0.5), screen: Self.screen, width: 320, height: 180)
        var images: [[UInt32]] = []
        for t in [1, 2, 3] {
            let fb = Framebuffer(width: 320, height: 180)
            fb.clear(color: 0)
            TriangleRasterizer(threads: t).draw(room, camera: cam, into: fb)
            images.append(fb.colorArray)
        }
        #expect(images[0] == images[1] && images[1] == images[2])
    }
}
