// glTF through the real binary: `info` on Fox.glb; `render` of a textured quad written as an
// unpacked .gltf, as a .glb and — the reference — as OBJ + MTL + PNG read by our own reader:
// the frames must match; a broken .glb is a one-line error.
import Foundation
import ImageIO
import RenderCore
import TestSupport
import Testing

@Suite("glTF, FBX, COLLADA and 3DS on the command line")
struct ImportedModelCommandTests {
    @Test(.enabled(if: TestData.isAvailable, TestData.skipMessage))
    func foxInfo() throws {
        let bin = try #require(BinaryLocator.splatframe(), "build the package first (swift build)")
        let r = try BinaryLocator.run(bin, ["info", TestData.path("meshes/Fox.glb")], environment: BinaryLocator.hermetic())
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("576 triangles") && r.stdout.contains("glTF 2.0 binary"), "\(r.stdout)")
        #expect(r.stdout.contains("element materials 1") && r.stdout.contains("element textures 1"), "\(r.stdout)")
    }

    @Test func gltfRendersLikeTheSameQuadAsOBJ() throws {
        let bin = try #require(BinaryLocator.splatframe(), "build the package first (swift build)")
        let dir = TestData.temporaryDirectory("gltf-render").path
        let fixture = Self.quad()
        let gltf = try fixture.writeUnpacked(to: dir, name: "quad")
        let glb = try fixture.writeBinary(to: dir, name: "quadb")
        // The reference: the corners where the node transform puts them, UVs with v up, our OBJ reader.
        let obj = """
        mtllib quad.mtl
        v 1 0 5
        v 1 0 1
        v 1 4 1
        v 1 4 5
        vt 0 0
        vt 1 0
        vt 1 1
        vt 0 1
        vn 1 0 0
        usemtl picture
        f 1/1/1 2/2/1 3/3/1
        f 1/1/1 3/3/1 4/4/1

        """
        try Data(obj.utf8).write(to: URL(fileURLWithPath: dir + "/quad.obj"))
        try Data("newmtl picture\nKd 1 1 1\nmap_Kd quad.png\n".utf8).write(to: URL(fileURLWithPath: dir + "/quad.mtl"))
        func render(_ file: String) throws -> RGBAImage {
            let out = file + ".png"
            let r = try BinaryLocator.run(bin, ["render", file, "--eye", "0.45,0.05,0.35", "--size", "320x180", "--out", out],
                                          environment: BinaryLocator.hermetic())
            try #require(r.status == 0, "\(r.stderr)")
            return try ImageFile.load(out)
        }
        let reference = try render(dir + "/quad.obj")
        for file in [gltf, glb] {
            let image = try render(file)
            let c = ImageComparison(image, reference)
            #expect(c.psnr >= 45 && c.maxError <= 8,
                    "\(file): \(c) — \(ImageComparison.writeFailureImages(name: "gltf-vs-obj", actual: image, expected: reference))")
        }
        // The picture shows: a textured frame is far from a flat one.
        let colours = Set(reference.pixels.map { $0 & 0xFFFFFF })
        #expect(colours.count > 20)
    }

    @Test func aBrokenGLBIsOneLine() throws {
        let bin = try #require(BinaryLocator.splatframe(), "build the package first (swift build)")
        let dir = TestData.temporaryDirectory("gltf-broken").path
        let glb = try Self.quad().writeBinary(to: dir, name: "quad")
        var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: glb)))
        bytes = Array(bytes.prefix(bytes.count / 2))
        try Data(bytes).write(to: URL(fileURLWithPath: glb))
        for command in [["info", glb], ["render", glb, "--eye", "0,0,0.6", "--size", "64x36", "--out", dir + "/o.png"]] {
            let r = try BinaryLocator.run(bin, command, environment: BinaryLocator.hermetic())
            let lines = r.stderr.split(separator: "\n")
            #expect(r.status == 2 && lines.count == 1 && r.stderr.contains(glb), "\(command[0]): \(r.stderr)")
        }
    }

    /// The textured quad of SceneIO's tests.
    static func quad() -> GLTFFixture { GLTFFixture.texturedQuad() }
}
