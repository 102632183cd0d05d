// SceneIOTests — format features on small in-memory files: PLY encodings, types, lists,
// tristrips, point clouds, OBJ index forms, STL binary/ASCII, detection.
import Foundation
import Testing
import RenderCore
@testable import SceneIO
import TestSupport
import ImageIO

struct FormatTests {
    @Test func asciiPLYWithAttributesAndPolygons() throws {
        let text = """
        ply
        format ascii 1.0
        comment hello
        obj_info made by hand
        element vertex 4
        property float32 x
        property double y
        property int z
        property uchar red
        property uchar green
        property uchar blue
        property float nx
        property float ny
        property float nz
        property float u
        property float v
        property float confidence
        element face 2
        property list uint8 int32 vertex_indices
        element unknown 1
        property list int float junk
        end_header
        0 0 0 255 0 0 0 0 1 0 0 9
        1 0 0 0 255 0 0 0 1 1 0 9
        1 1 0 0 0 255 0 0 1 1 1 9
        0 1 0 255 255 255 0 0 1 0 1 9
        4 0 1 2 3
        2 0 1
        3 1.5 2.5 3.5

        """
        let m = try #require(mesh(try loadText(text, "a.ply")))
        #expect(m.vertexCount == 4)
        #expect(m.indices == [0, 1, 2, 0, 2, 3])               // quad fanned; the 2-gon skipped
        #expect(m.colors[1] == Vec4(0, 1, 0, 1))
        #expect(m.normals[2] == Vec3(0, 0, 1))
        #expect(m.uvs[2] == Vec2(1, 1))
    }

    @Test func bigEndianEveryType() throws {
        var b = Array("""
        ply
        format binary_big_endian 1.0
        element extra 1
        property list uint16 int8 stuff
        element vertex 3
        property int8 a
        property uint16 b
        property float x
        property double y
        property short z
        property uint w
        element face 1
        property list uint int vertex_index

        """.utf8) + Array("end_header\n".utf8)
        b += [0, 2, 0xff, 0x01]                                          // extra: list of 2
        func be<T: FixedWidthInteger>(_ v: T) -> [UInt8] { withUnsafeBytes(of: v.bigEndian) { Array($0) } }
        for i in 0..<3 {
            b += [0x80] + be(UInt16(7)) + be(Float(i).bitPattern) + be(Double(i * 2).bitPattern) + be(Int16(-i)) + be(UInt32(9))
        }
        b += be(UInt32(3)) + be(Int32(0)) + be(Int32(1)) + be(Int32(2))
        let m = try #require(mesh(try loadBytes(b, "b.ply")))
        #expect(m.positions == [Vec3(0, 0, 0), Vec3(1, 2, -1), Vec3(2, 4, -2)])
        #expect(m.indices == [0, 1, 2])
    }

    @Test func tristripsRestartAndWinding() throws {
        let text = "ply\nformat ascii 1.0\nelement vertex 6\nproperty float x\nproperty float y\nproperty float z\n"
            + "element tristrips 1\nproperty list int int vertex_indices\nend_header\n"
            + "0 0 0\n1 0 0\n0 1 0\n1 1 0\n2 0 0\n2 1 0\n"
            + "9 0 1 2 3 -1 1 4 3 5\n"
        let m = try #require(mesh(try loadText(text, "s.ply")))
        #expect(m.indices == [0, 1, 2, 2, 1, 3, 1, 4, 3, 3, 4, 5])
    }

    @Test func vertexOnlyPLYIsPointCloud() throws {
        let text = "ply\nformat ascii 1.0\nelement vertex 2\nproperty float x\nproperty float y\nproperty float z\nproperty uchar red\nproperty uchar green\nproperty uchar blue\nproperty uchar alpha\nend_header\n1 2 3 255 0 0 255\n4 5 6 0 0 255 0\n"
        let p = try #require(points(try loadText(text, "p.ply")))
        #expect(p.positions == [Vec3(1, 2, 3), Vec3(4, 5, 6)])
        #expect(p.colors == [Vec4(1, 0, 0, 1), Vec4(0, 0, 1, 0)])
    }

    @Test func gaussianPLYByNameWithExtras() throws {
        // Properties in an unusual order, no normals, an extra filter_3D, ASCII.
        let names = ["rot_1", "opacity", "filter_3D", "x", "rot_0", "y", "z", "f_dc_2", "f_dc_0", "f_dc_1",
                     "scale_2", "scale_1", "scale_0", "rot_2", "rot_3"]
        var t = "ply\nformat ascii 1.0\nelement vertex 1\n"
        for n in names { t += "property float \(n)\n" }
        t += "end_header\n0 0 7 1 2 2 3 0.3 0.1 0.2 -3 -2 -1 0 0\n"
        let c = try #require(splats(try loadText(t, "g.ply")))
        #expect(c.positions[0] == Vec3(1, 2, 3))
        #expect(c.dc[0] == Vec3(0.1, 0.2, 0.3))
        #expect(c.opacities[0] == 0.5)
        #expect(maxDiff(c.scales[0], Vec3(expf(-1), expf(-2), expf(-3))) < 1e-7)
        #expect(c.rotations[0] == Quaternion(w: 1, x: 0, y: 0, z: 0))
    }

    @Test func objIndexFormsAndMaterials() throws {
        let text = """
        # comment
        v 0 0 0
        v 1 0 0
        v 1 1 0
        v 0 1 0
        vt 0 0
        vt 1 1
        vn 0 0 1
        f 1 2 3
        usemtl red
        f 1/1 2/2 3/1
        f 1//1 3//1 4//1
        f -4/-2/-1 -3/-1/-1 -2/-2/-1 -1/-1/-1
        """
        let m = try #require(mesh(try loadText(text, "a.obj")))
        #expect(m.triangleCount == 5)
        #expect(m.groups.count == 2)
        #expect(m.groups.map(\.triangleCount) == [1, 4])
        #expect(m.materials.contains { $0.name == "red" })
        #expect(m.uvs.count == m.vertexCount && m.normals.count == m.vertexCount)
    }

    @Test func objWithMTLAndTexture() throws {
        let dir = TestData.temporaryDirectory("sceneio-obj")
        try "newmtl wall\nKd 0.5 0.25 1\nmap_Kd tex/pic.png\n".write(to: dir.appendingPathComponent("m.mtl"), atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("tex"), withIntermediateDirectories: true)
        try ImageFile.savePNG(RGBAImage(width: 2, height: 2, fill: 0xFF00_00FF), to: dir.appendingPathComponent("tex/pic.png").path)
        let obj = "mtllib m.mtl\nv 0 0 0\nv 1 0 0\nv 0 1 0\nvt 0 0\nusemtl wall\nf 1/1 2/1 3/1\n"
        let path = dir.appendingPathComponent("a.obj").path
        try obj.write(toFile: path, atomically: true, encoding: .utf8)
        let m = try #require(mesh(try SceneFile.load(path: path)))
        let mat = try #require(m.materials.first { $0.name == "wall" })
        #expect(mat.baseColor == Vec4(0.5, 0.25, 1, 1))
        #expect(mat.texture?.width == 2)
    }

    @Test func stlBinaryStartingWithSolidAndASCII() throws {
        var b = Array("solid but really binary".utf8) + [UInt8](repeating: 32, count: 80 - 23)
        b += le(UInt32(1))
        for f: Float in [0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0] { b += le(f) }
        b += [0, 0]
        let m = try #require(mesh(try loadBytes(b, "x.stl")))
        #expect(m.triangleCount == 1 && m.positions[1] == Vec3(1, 0, 0) && m.normals[0] == Vec3(0, 0, 1))
        let a = "solid t\nfacet normal 0 0 0\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nvertex 0 1 0\nendloop\nendfacet\nendsolid t\n"
        let ma = try #require(mesh(try loadText(a, "no-extension")))
        #expect(ma.triangleCount == 1 && ma.normals[0] == Vec3(0, 0, 1))
    }

    @Test func detection() {
        func det(_ s: String, _ name: String) -> SceneFormat? { Array(s.utf8).withUnsafeBytes { SceneFormat.detect($0, name: name) } }
        #expect(det("ply\nformat ascii 1.0\n", "x.bin") == .ply)
        #expect(det("# hi\nv 1 2 3\n", "noext") == .obj)
        #expect(det("NGSP....", "x") == .spz)
        #expect(det("solid x\n facet normal", "x") == .stl)
        #expect(det(String(repeating: "a", count: 64), "x.splat") == .splat)
        #expect(det(String(repeating: "a", count: 64), "x") == nil)
    }

    @Test func playCanvasCompressedDecode() throws {
        let chunk = ["min_x", "min_y", "min_z", "max_x", "max_y", "max_z", "min_scale_x", "min_scale_y", "min_scale_z",
                     "max_scale_x", "max_scale_y", "max_scale_z", "min_r", "min_g", "min_b", "max_r", "max_g", "max_b"]
        var h = "ply\nformat binary_little_endian 1.0\nelement chunk 1\n"
        for n in chunk { h += "property float \(n)\n" }
        h += "element vertex 2\nproperty uint packed_position\nproperty uint packed_rotation\nproperty uint packed_scale\nproperty uint packed_color\n"
        h += "element sh 2\n" + (0..<9).map { "property uchar f_rest_\($0)\n" }.joined() + "end_header\n"
        var b = Array(h.utf8)
        for f: Float in [-1, -2, -3, 1, 2, 3, -5, -5, -5, -1, -1, -1, 0, 0, 0, 1, 1, 1] { b += le(f) }
        b += le(UInt32(0)) + le(UInt32(0x4000_0000 | 511 << 20 | 511 << 10 | 511)) + le(UInt32(0)) + le(UInt32(0xFF80_40C0))
        b += le(UInt32.max) + le(UInt32(0)) + le(UInt32.max) + le(UInt32(0x0000_00FF))
        b += [0, 255, 128, 0, 0, 0, 0, 0, 0] + [UInt8](repeating: 0, count: 9)
        let c = try #require(splats(try loadBytes(b, "c.ply")))
        #expect(c.count == 2 && c.shDegree == 1)
        #expect(c.positions[0] == Vec3(-1, -2, -3) && c.positions[1] == Vec3(1, 2, 3))
        #expect(maxDiff(c.scales[0], Vec3(repeating: expf(-5))) < 1e-7 && maxDiff(c.scales[1], Vec3(repeating: expf(-1))) < 1e-7)
        // Largest component index 1 = rot_1 (x); the others are ≈ 0.
        #expect(abs(c.rotations[0].x - 1) < 1e-5 && abs(c.rotations[0].w) < 1e-3)
        #expect(maxDiff(c.baseColor(0), Vec3(1, 128.0 / 255, 64.0 / 255)) < 1e-6)
        #expect(abs(c.opacities[0] - 192.0 / 255) < 1e-6 && c.opacities[1] == 1)
        // SH: channel-major in the file (f_rest_0 = R k0, f_rest_1 = R k1, f_rest_2 = R k2, f_rest_3 = G k0 …).
        #expect(c.shRest[0] == -4)                      // R, k0 ← f_rest_0 = 0
        #expect(c.shRest[3] == 4)                       // R, k1 ← f_rest_1 = 255
        #expect(c.shRest[6] == (128.5 / 256 - 0.5) * 8) // R, k2 ← f_rest_2 = 128
        #expect(c.shRest[1] == -4)                      // G, k0 ← f_rest_3 = 0
    }
}
