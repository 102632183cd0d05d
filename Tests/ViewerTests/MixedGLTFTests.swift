// ViewerTests — a hand-made GLB holding a textured quad and splats opens as one mixed scene (the
// mixed scenes' own mechanism: meshes first, splats depth-tested against them) placed like a
// model: a splat in front of the quad hides it, one behind it does not show, one beside it shows,
// and the quad's picture shows around them.
import Foundation
import RenderCore
import SceneIO
import SplatRender
import TestSupport
import Testing
@testable import Viewer

@Suite struct MixedGLTFTests {
    static let screen = ScreenGeometry(width: 0.6, height: 0.34)
    /// glTF's frame: in front of the quad (z = 0), behind it, beside it.
    static let front = Vec3(-0.5, 0.3, 0.4), behind = Vec3(0.5, -0.3, -0.4), beside = Vec3(1.6, 0, 0)

    /// A 2 × 2 quad in z = 0 facing +z with the 4 × 2 test picture, and three magenta splats.
    static func file(folder: String) throws -> String {
        var f = GLTFFixture()
        var quad = GLTFFixture.Mesh(positions: [Vec3(-1, -1, 0), Vec3(1, -1, 0), Vec3(1, 1, 0), Vec3(-1, 1, 0)], indices: [0, 1, 2, 0, 2, 3], material: 0)
        quad.normals = Array(repeating: Vec3(0, 0, 1), count: 4)
        quad.uvs = [Vec2(0, 1), Vec2(1, 1), Vec2(1, 0), Vec2(0, 0)]
        f.meshes = [quad]
        f.nodes = [GLTFFixture.Node(mesh: 0)]
        f.roots = [0]
        f.materials = [GLTFFixture.Material(name: "picture", textured: true)]
        f.picture = GLTFFixture.quadPicture
        var b = try f.builder(folder: folder)
        let mesh = b.uniformSplatMesh(centres: [front, behind, beside], scale: 0.12, opacity: 0.99, colour: Vec3(1, 0, 1))
        let node = b.node(["mesh": mesh])
        b.json["scenes"] = [["nodes": [0, node]]]
        let path = (folder as NSString).appendingPathComponent("quad-and-splats.glb")
        try b.glb().write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func meshAndSplatsCompositeByDepth() throws {
        if let exe = BinaryLocator.splatframe() {
            ModelImporterProcess.command = ModelImporterCommand(executable: exe, arguments: ["import-model"])
        }
        let dir = TestData.temporaryDirectory("mixed-glb")
        defer { try? FileManager.default.removeItem(at: dir) }
        let loader = try SceneLoader.load(path: try Self.file(folder: dir.path))
        let scene = try #require(try loader.scene(screen: Self.screen) as? MixedScene)
        #expect(scene.meshes.count == 1 && scene.splatObjects.count == 1 && scene.splatObjects[0].splats.count == 3)
        #expect(scene.placement?.up == .posY)                                     // placeable like a model, y up as glTF
        let camera = OffAxisFrustum.camera(eye: Vec3(0, 0, 0.6), screen: Self.screen, width: 240, height: 136)
        let fb = Framebuffer(width: camera.width, height: camera.height)
        _ = scene.render(camera: camera, into: fb, context: RenderContext(threads: 2))
        let model = try #require(scene.model).matrix
        func pixel(_ p: Vec3) throws -> SIMD4<UInt8> {
            let s = model.transform(point: p)
            let (px, _) = try #require(camera.project(Vec3(s.x, s.y, s.z) / s.w))
            return PackedColor.channels(fb.color[Int(px.y) * fb.width + Int(px.x)])
        }
        func magenta(_ c: SIMD4<UInt8>) -> Bool { c.x > 170 && c.z > 170 && c.y < 90 }
        func picture(_ c: SIMD4<UInt8>) -> Bool { c.y > 60 && !magenta(c) }       // the texture's colours all hold green
        let inFront = try pixel(Self.front), hidden = try pixel(Self.behind), aside = try pixel(Self.beside)
        let quadOnly = try pixel(Vec3(-0.6, -0.6, 0))
        #expect(magenta(inFront), "the splat in front of the quad: \(inFront)")
        #expect(picture(hidden), "the splat behind the quad is hidden: \(hidden)")
        #expect(magenta(aside), "the splat beside the quad: \(aside)")
        #expect(picture(quadOnly), "the quad's picture: \(quadOnly)")
        if !(magenta(inFront) && picture(hidden) && magenta(aside)) {
            ImageComparison.writeFailureImages(name: "mixed-glb", actual: fb.image(), expected: fb.image())
        }
    }
}
