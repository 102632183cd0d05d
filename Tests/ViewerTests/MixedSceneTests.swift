// ViewerTests — scenes that mix meshes and splats (`"type": "scene"`): the JSON, each object's
// placement (its bounds' centre at `position`, its largest extent `size`), and the frame against
// the slow references: the reference rasterizer's colour and depth, then the reference splat
// renderer depth-tested over them, object by object far to near.
import Foundation
import RenderCore
import SceneIO
import SplatRender
import TestSupport
import TriangleRaster
import Testing
@testable import Viewer

@Suite struct MixedSceneTests {
    static let screen = ScreenGeometry(width: 0.6, height: 0.34)

    @Test func jsonIsReadWithPathsBesideIt() throws {
        let dir = TestData.temporaryDirectory("mixed-json")
        let path = dir.appendingPathComponent("scene.json").path
        try Data(#"{"type":"scene","room":{"depth":0.4,"walls":{"back":"b.png"}},"objects":[{"file":"a.glb","position":[0.1,0,-0.2],"size":0.15,"up":"-y","yaw":30},{"file":"/abs/c.spz"}]}"#.utf8)
            .write(to: URL(fileURLWithPath: path))
        guard case .mixed(let m) = try SceneJSON.load(path) else { Issue.record("not read as a mixed scene"); return }
        #expect(m.room?.depth == 0.4 && m.room?.walls[.back] == dir.appendingPathComponent("b.png").path)
        #expect(m.objects == [MixedSceneDescription.Object(file: dir.appendingPathComponent("a.glb").path, position: Vec3(0.1, 0, -0.2),
                                                           size: 0.15, up: .negY, yaw: 30),
                              MixedSceneDescription.Object(file: "/abs/c.spz")])
        for (json, mentions) in [(#"{"type":"scene"}"#, "objects"), (#"{"type":"scene","objects":[{"file":"a","size":-1}]}"#, "objects[0].size"),
                                 (#"{"type":"scene","objects":[{"file":"a","up":"w"}]}"#, "objects[0].up"),
                                 (#"{"type":"scene","objects":[{"file":"a","colour":1}]}"#, "objects[0].colour"),
                                 (#"{"type":"room"}"#, "type")] {
            try Data(json.utf8).write(to: URL(fileURLWithPath: path))
            do {
                _ = try SceneJSON.load(path)
                Issue.record("\(json) was accepted")
            } catch {
                let text = "\(error)"
                #expect(text.contains(path) && text.contains(mentions) && !text.contains("\n"), "\(text)")
            }
        }
    }

    @Test func anObjectsBoundsLandOnItsPositionAndSize() {
        let bounds = Bounds(min: Vec3(-1, 0, 2), max: Vec3(3, 1, 4))   // largest extent 4 (x)
        let o = MixedSceneDescription.Object(file: "x", position: Vec3(0.1, -0.05, -0.2), size: 0.2)
        let m = o.matrix(bounds: bounds, up: .posY, screen: Self.screen)
        func apply(_ p: Vec3) -> Vec3 { let q = m.transform(point: p); return Vec3(q.x, q.y, q.z) / q.w }
        let lo = apply(bounds.min), hi = apply(bounds.max)
        #expect((apply(bounds.center) - Vec3(0.1, -0.05, -0.2)).length < 1e-5)
        #expect(abs((hi.x - lo.x) - 0.2) < 1e-5 && abs((hi.y - lo.y) - 0.05) < 1e-5 && abs((hi.z - lo.z) - 0.1) < 1e-5)
        // Turned 90°: its x extent now runs along z.
        var turned = o
        turned.yaw = 90
        let t = turned.matrix(bounds: bounds, up: .posY, screen: Self.screen)
        let a = t.transform(point: bounds.min), b = t.transform(point: bounds.max)
        #expect(abs(abs(b.z / b.w - a.z / a.w) - 0.2) < 1e-5)
    }

    /// An unlit red quad over the left half at z = −0.1; a wall of blue splats behind at z = −0.3;
    /// two green splats at z = −0.2, one behind the quad (hidden) and one beside it (seen).
    static func scene() -> (MixedScene, TriangleMesh, [(SplatCloud, Matrix4)]) {
        var quad = TriangleMesh(positions: [Vec3(-0.3, -0.17, -0.1), Vec3(0, -0.17, -0.1), Vec3(0, 0.17, -0.1), Vec3(-0.3, 0.17, -0.1)],
                                indices: [0, 1, 2, 0, 2, 3])
        quad.materials = [TriangleMesh.Material(name: "red", baseColor: Vec4(1, 0, 0, 1), lit: false)]
        var wall = SplatCloud(shDegree: 0)
        for i in 0..<9 {
            for j in 0..<5 {
                // In the wall's own frame (metres ×10), placed by a scale and a translation.
                wall.append(position: Vec3(Float(i - 4) * 0.8, Float(j - 2) * 0.8, 0), scale: Vec3(0.5, 0.5, 0.1), rotation: .identity,
                            opacity: 0.9, dc: SplatCloud.dcFromColor(Vec3(0.1, 0.2, 0.9)))
            }
        }
        let wallMatrix = Matrix4.translation(Vec3(0, 0, -0.3)) * Matrix4.scale(Vec3(repeating: 0.1))
        var greens = SplatCloud(shDegree: 0)
        for x in [Float(-0.15), 0.15] {
            greens.append(position: Vec3(x, 0, -0.2), scale: Vec3(0.03, 0.03, 0.01), rotation: .identity, opacity: 0.95,
                          dc: SplatCloud.dcFromColor(Vec3(0.1, 0.9, 0.2)))
        }
        let scene = MixedScene(name: "test", room: nil,
                               meshes: [.init(mesh: quad, matrix: .identity, settings: RasterSettings())],
                               splatObjects: [.init(splats: SplatRenderer.prepare(greens), matrix: .identity, centre: Vec3(0, 0, -0.2), antialias: false),
                                              .init(splats: SplatRenderer.prepare(wall), matrix: wallMatrix, centre: Vec3(0, 0, -0.3), antialias: false)])
        return (scene, quad, [(wall, wallMatrix), (greens, .identity)])   // the references' order: far to near
    }

    @Test func splatsAreHiddenBehindMeshesAndSeenBesideThem() throws {
        let (scene, quad, farToNear) = Self.scene()
        let camera = OffAxisFrustum.camera(eye: Vec3(0.02, 0.01, 0.6), screen: Self.screen, width: 192, height: 108)
        #expect(scene.drawOrder(camera: camera) == [1, 0])
        let fast = Framebuffer(width: camera.width, height: camera.height)
        _ = scene.render(camera: camera, into: fast, context: RenderContext(threads: 2))
        // The references: the mesh's colour and depth, then each splat object over them.
        let ref = Framebuffer(width: camera.width, height: camera.height)
        let raster = ReferenceRasterizer.render(quad, camera: camera)
        for i in 0..<ref.pixelCount { ref.color[i] = raster.image.pixels[i]; ref.depth[i] = raster.depth[i] }
        for (cloud, matrix) in farToNear {
            var cam = camera
            cam.view = camera.view * matrix
            ReferenceSplatRenderer.render(cloud, camera: cam, into: ref, depthTest: true)
        }
        let c = ImageComparison(fast.image(), ref.image(), tolerance: 12)
        if c.psnr < 35 { ImageComparison.writeFailureImages(name: "mixed-scene", actual: fast.image(), expected: ref.image()) }
        #expect(c.psnr >= 35 && Double(c.differingPixels) < 0.01 * Double(fast.pixelCount), "\(c)")
        // Where the green splats are: behind the quad only red shows; beside it, green.
        func pixel(_ p: Vec3) -> SIMD4<UInt8> {
            let (px, _) = camera.project(p)!
            return PackedColor.channels(fast.color[Int(px.y) * fast.width + Int(px.x)])
        }
        let hidden = pixel(Vec3(-0.15, 0, -0.2)), seen = pixel(Vec3(0.15, 0, -0.2)), wall = pixel(Vec3(0.22, 0.1, -0.3))
        #expect(hidden.x > 240 && hidden.y < 10, "behind the quad: \(hidden)")
        #expect(seen.y > 180 && seen.x < 80, "beside the quad: \(seen)")
        #expect(wall.z > 150 && wall.y < 120, "the wall behind: \(wall)")
    }

    /// The window, `bench` and `export` read no depth: splats drawn last then skip theirs, and the
    /// colour is the same byte for byte.
    @Test func framesNobodyReadsDepthFromKeepTheirColourAndSkipTheLastSplatsDepth() throws {
        let (scene, _, _) = Self.scene()
        let camera = OffAxisFrustum.camera(eye: Vec3(0.02, 0.01, 0.6), screen: Self.screen, width: 192, height: 108)
        let withDepth = Framebuffer(width: camera.width, height: camera.height)
        let colourOnly = Framebuffer(width: camera.width, height: camera.height)
        _ = scene.render(camera: camera, into: withDepth, context: RenderContext(threads: 2))
        _ = scene.render(camera: camera, into: colourOnly, context: RenderContext(threads: 2, producesDepth: false))
        #expect(withDepth.image().pixels == colourOnly.image().pixels)
        // The green splat beside the quad is drawn last: its depth (0.8 m from the eye) is written
        // only when asked for; the wall's (0.9 m), which the greens were tested against, always is.
        let (px, _) = camera.project(Vec3(0.15, 0, -0.2))!
        let i = Int(px.y) * camera.width + Int(px.x)
        #expect(abs(withDepth.depth[i] - 0.8) < 0.02, "\(withDepth.depth[i])")
        #expect(abs(colourOnly.depth[i] - 0.9) < 0.02, "\(colourOnly.depth[i])")

        // A capture alone: no clear, no depth written, the same colour.
        let model = try SceneLoader.load(path: "generate:300").scene(screen: Self.screen)
        let eye = OffAxisFrustum.camera(eye: Vec3(0.03, 0.02, 0.6), screen: Self.screen, width: 96, height: 54)
        let a = Framebuffer(width: 96, height: 54), b = Framebuffer(width: 96, height: 54)
        for k in 0..<b.pixelCount { b.depth[k] = -7 }
        _ = model.render(camera: eye, into: a, context: RenderContext(threads: 2))
        _ = model.render(camera: eye, into: b, context: RenderContext(threads: 2, producesDepth: false))
        #expect(a.image().pixels == b.image().pixels)
        #expect(a.depthArray.contains { $0.isFinite && $0 > 0 }, "the capture writes its depth when asked")
        #expect(b.depthArray.allSatisfy { $0 == -7 }, "and leaves the depth buffer alone when not")
    }
}
