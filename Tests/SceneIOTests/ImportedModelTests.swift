// SceneIOTests — glTF through the importer child process, checked against files written from
// known geometry (node transforms, UVs, linear colours, pictures beside the file or inside it),
// Fox.glb, the child's failures (crash, hang, garbage, refusal) and the pipe format's decoder.
import Foundation
import Testing
import RenderCore
@testable import SceneIO
import TestSupport

@Suite struct ImportedModelTests {
    init() { useBuiltImporter() }

    static let picture = GLTFFixture.quadPicture

    static func texturedQuad() -> GLTFFixture { GLTFFixture.texturedQuad() }

    /// The quad's corners as the importer must place them (x' = T + R·S·x, R: (x, y, z) → (z, y, −x)),
    /// with our UVs (v up).
    static let expectedQuad: [(Vec3, Vec2)] = [
        (Vec3(1, 0, 5), Vec2(0, 0)), (Vec3(1, 0, 1), Vec2(1, 0)), (Vec3(1, 4, 1), Vec2(1, 1)), (Vec3(1, 4, 5), Vec2(0, 1)),
    ]

    func checkQuad(_ m: TriangleMesh) throws {
        #expect(m.triangleCount == 2)
        for (i, p) in m.positions.enumerated() {
            let match = Self.expectedQuad.first { maxDiff($0.0, p) < 1e-5 }
            #expect(match != nil, "vertex \(p) is not a transformed corner")
            if let match { #expect(abs(m.uvs[i].x - match.1.x) < 1e-6 && abs(m.uvs[i].y - match.1.y) < 1e-6) }
            #expect(maxDiff(m.normals[i], Vec3(1, 0, 0)) < 1e-5)
        }
        for t in 0..<m.triangleCount {
            let a = m.positions[Int(m.indices[3 * t])], b = m.positions[Int(m.indices[3 * t + 1])], c = m.positions[Int(m.indices[3 * t + 2])]
            let e1 = b - a, e2 = c - a
            let n = Vec3(e1.y * e2.z - e1.z * e2.y, e1.z * e2.x - e1.x * e2.z, e1.x * e2.y - e1.y * e2.x)
            #expect(n.x > 0, "triangle \(t) winds clockwise seen from its normal")
        }
        let material = m.materials[m.groups.first?.material ?? 0]
        let texture = try #require(material.texture)
        #expect(texture.width == 4 && texture.height == 2)
        let l = texture.levels[0]
        for y in 0..<2 { for x in 0..<4 { #expect(texture.texels[l.offset + y * l.stride + x] == Self.picture.pixels[y * 4 + x]) } }
    }

    @Test func unpackedGLTFWithTextureBesideIt() throws {
        let dir = TestData.temporaryDirectory("gltf-unpacked").path
        let path = try Self.texturedQuad().writeUnpacked(to: dir, name: "quad")
        let (scene, info) = try SceneFile.loadWithInfo(path: path)
        try checkQuad(try #require(mesh(scene)))
        #expect(info.format == .gltf && info.variant.hasPrefix("glTF 2.0"))
        #expect(info.elements.first { $0.name == "materials" }?.properties == ["picture"])
        #expect(info.elements.first { $0.name == "textures" }?.properties == ["quad.png"])
        #expect(info.warnings.isEmpty, "\(info.warnings)")
    }

    @Test func binaryGLTFWithEmbeddedPicture() throws {
        let dir = TestData.temporaryDirectory("gltf-binary").path
        let path = try Self.texturedQuad().writeBinary(to: dir, name: "quad")
        let (scene, info) = try SceneFile.loadWithInfo(path: path)
        try checkQuad(try #require(mesh(scene)))
        #expect(info.variant.hasPrefix("glTF 2.0 binary"))
        #expect(info.elements.first { $0.name == "textures" }?.count == 1)
    }

    @Test func aMissingPictureLeavesTheMaterialUntexturedWithAWarning() throws {
        let dir = TestData.temporaryDirectory("gltf-missing-picture").path
        let path = try Self.texturedQuad().writeUnpacked(to: dir, name: "quad")
        try FileManager.default.removeItem(atPath: dir + "/quad.png")
        let (scene, info) = try SceneFile.loadWithInfo(path: path)
        #expect(try #require(mesh(scene)).materials.allSatisfy { $0.texture == nil })
        #expect(info.warnings.count == 1 && info.warnings[0].contains("quad.png"), "\(info.warnings)")
    }

    /// A vertex-coloured triangle under a parent that moves it and a child that mirrors x: the
    /// mirror must flip the winding back to counter-clockwise, colours go linear → sRGB.
    @Test func vertexColoursAndMirroredNodes() throws {
        var f = GLTFFixture()
        var tri = GLTFFixture.Mesh(positions: [Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0)], indices: [0, 1, 2])
        tri.normals = Array(repeating: Vec3(0, 0, 1), count: 3)
        tri.colors = [Vec4(0.5, 0.25, 1, 1), Vec4(1, 0, 0, 1), Vec4(0, 0.5, 0, 0.5)]
        f.meshes = [tri]
        var parent = GLTFFixture.Node()
        parent.translation = Vec3(0, 0, -1)
        parent.children = [1]
        var child = GLTFFixture.Node(mesh: 0)
        child.scale = Vec3(-1, 1, 1)
        f.nodes = [parent, child]; f.roots = [0]
        let dir = TestData.temporaryDirectory("gltf-colours").path
        let m = try #require(mesh(try SceneFile.load(path: try f.writeBinary(to: dir, name: "tri"))))
        #expect(m.triangleCount == 1)
        let srgbHalf: Float = 0.735_357, srgbQuarter: Float = 0.537_099
        let expected: [(Vec3, Vec4)] = [(Vec3(0, 0, -1), Vec4(srgbHalf, srgbQuarter, 1, 1)), (Vec3(-1, 0, -1), Vec4(1, 0, 0, 1)),
                                        (Vec3(0, 1, -1), Vec4(0, srgbHalf, 0, 0.5))]
        for (i, p) in m.positions.enumerated() {
            let match = try #require(expected.first { maxDiff($0.0, p) < 1e-5 }, "vertex \(p)")
            let d = m.colors[i] - match.1
            #expect(max(abs(d.x), abs(d.y), abs(d.z), abs(d.w)) < 1e-4, "colour \(m.colors[i]) for \(p)")
            #expect(maxDiff(m.normals[i], Vec3(0, 0, 1)) < 1e-5)
        }
        let a = m.positions[Int(m.indices[0])], b = m.positions[Int(m.indices[1])], c = m.positions[Int(m.indices[2])]
        let e1 = b - a, e2 = c - a
        #expect(e1.x * e2.y - e1.y * e2.x > 0, "the mirrored triangle must still face +z")
    }

    @Test(.enabled(if: TestData.isAvailable, TestData.skipMessage))
    func foxIsTexturedWith576Triangles() throws {
        let (scene, info) = try SceneFile.loadWithInfo(path: TestData.path("meshes/Fox.glb"))
        let m = try #require(mesh(scene))
        #expect(m.triangleCount == 576 && info.triangles == 576)
        #expect(m.uvs.count == m.vertexCount && m.normals.count == m.vertexCount)
        let texture = try #require(m.materials[0].texture)
        #expect(texture.width > 1 && texture.height > 1)
        #expect(info.elements.first { $0.name == "textures" }?.count == 1)
    }

    // MARK: the child process failing

    /// A stand-in importer: a shell script.
    func script(_ body: String) throws -> String {
        let path = TestData.temporaryDirectory("importer-standin").appendingPathComponent("importer").path
        try Data("#!/bin/sh\n\(body)\n".utf8).write(to: URL(fileURLWithPath: path))
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path)
        return path
    }

    /// The error of importing through the stand-in `importer`, run as the executable would run
    /// its hidden command: one leading argument before `--output OUT FILE`.
    func importError(_ importer: String, timeLimit: Double = 60) throws -> String {
        do {
            _ = try ModelImporterProcess.run(path: "/nonexistent/model.glb",
                                             importer: ModelImporterCommand(executable: importer, arguments: ["import-model"]),
                                             timeLimit: timeLimit)
            Issue.record("the stand-in importer's failure was not reported")
            return ""
        } catch let e as SceneIOError {
            let text = e.description
            #expect(!text.contains("\n") && text.hasPrefix("/nonexistent/model.glb: "), "\(text)")
            return text
        }
    }

    @Test func aCrashingImporterIsOneLine() throws {
        #expect(try importError(try script("kill -SEGV $$")).contains("crashed on this file (signal 11)"))
    }

    @Test func aHangingImporterIsStopped() throws {
        #expect(try importError(try script("exec sleep 600"), timeLimit: 0.5).contains("took longer than 0.5 s"))
    }

    @Test func theImportersOwnErrorIsPassedOn() throws {
        let text = try importError(try script("echo 'noise' >&2; echo '/nonexistent/model.glb: GLTF: bad accessor' >&2; exit 1"))
        #expect(text == "/nonexistent/model.glb: GLTF: bad accessor")
    }

    @Test func theCommandGivenIsTheCommandRun() throws {
        // The program's executable and leading arguments, then `--output OUT FILE`.
        let text = try importError(try script("echo \"$0 $*\" >&2; exit 1"))
        #expect(text.contains("/importer import-model --output /") && text.hasSuffix(" /nonexistent/model.glb"), "\(text)")
    }

    @Test func garbageOutputIsRejected() throws {
        // $3 is the --output path.
        let text = try importError(try script("printf 'SFIMPORT\\001\\000\\000\\000\\377\\377' > \"$3\""))
        #expect(text.contains("importer output") || text.contains("file ends early"), "\(text)")
        #expect(try importError(try script("exit 0")).contains("wrote no model"))
    }

    // MARK: the pipe format

    static func sampleModel() -> ImportedModel {
        var m = ImportedModel(variant: "test")
        m.positions = [Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0)]
        m.normals = Array(repeating: Vec3(0, 0, 1), count: 3)
        m.uvs = [Vec2(0, 0), Vec2(1, 0), Vec2(0, 1)]
        m.colors = Array(repeating: Vec4(1, 0.5, 0.25, 1), count: 3)
        m.indices = [0, 1, 2]
        m.materials = [.init(name: "a", baseColor: Vec4(1, 1, 1, 1), texture: .embedded(0)),
                       .init(name: "b", baseColor: Vec4(0.5, 0.5, 0.5, 1), texture: .file("b.png"))]
        m.groups = [TriangleMesh.Group(firstTriangle: 0, triangleCount: 1, material: 1)]
        m.embedded = [.rgba(width: 1, height: 1, texels: [1, 2, 3, 4]), .encoded([9, 9])]
        m.warnings = ["w"]
        return m
    }

    @Test func thePipeFormatRoundTrips() throws {
        let m = Self.sampleModel()
        #expect(try ImportedModel.decode(Data(m.encode()), file: "x") == m)
    }

    /// Every truncation and many single-byte changes: an error naming the file, or a model whose
    /// indices are all in range — never a trap or a huge allocation.
    @Test func thePipeDecoderTrustsNothing() throws {
        let bytes = Self.sampleModel().encode()
        for n in 0..<bytes.count {
            #expect(throws: SceneIOError.self) { try ImportedModel.decode(Data(bytes.prefix(n)), file: "x") }
        }
        var rng = SplitMix64(seed: 7)
        for _ in 0..<2000 {
            var b = bytes
            b[Int(rng.next() % UInt64(b.count))] = UInt8(truncatingIfNeeded: rng.next())
            if let m = try? ImportedModel.decode(Data(b), file: "x") {
                #expect(m.indices.allSatisfy { Int($0) < m.positions.count })
            }
        }
    }
}

@Suite struct ImportedCOLLADATests {
    init() { useBuiltImporter() }

    /// A hand-written COLLADA triangle under a node that moves it by (0, 0, −2) and a red material.
    static let dae = """
    <?xml version="1.0" encoding="utf-8"?>
    <COLLADA xmlns="http://www.collada.org/2005/11/COLLADASchema" version="1.4.1">
      <asset><unit meter="1"/><up_axis>Y_UP</up_axis></asset>
      <library_effects><effect id="red-fx"><profile_COMMON><technique sid="t"><lambert>
        <diffuse><color>1 0 0 1</color></diffuse></lambert></technique></profile_COMMON></effect></library_effects>
      <library_materials><material id="red" name="red"><instance_effect url="#red-fx"/></material></library_materials>
      <library_geometries><geometry id="tri"><mesh>
        <source id="p"><float_array id="pa" count="9">0 0 0 1 0 0 0 1 0</float_array>
          <technique_common><accessor source="#pa" count="3" stride="3">
            <param name="X" type="float"/><param name="Y" type="float"/><param name="Z" type="float"/></accessor></technique_common></source>
        <vertices id="v"><input semantic="POSITION" source="#p"/></vertices>
        <triangles material="m" count="1"><input semantic="VERTEX" source="#v" offset="0"/><p>0 1 2</p></triangles>
      </mesh></geometry></library_geometries>
      <library_visual_scenes><visual_scene id="s"><node id="n"><translate>0 0 -2</translate>
        <instance_geometry url="#tri"><bind_material><technique_common>
          <instance_material symbol="m" target="#red"/></technique_common></bind_material></instance_geometry>
      </node></visual_scene></library_visual_scenes>
      <scene><instance_visual_scene url="#s"/></scene>
    </COLLADA>
    """

    @Test func aCOLLADATriangle() throws {
        let dir = TestData.temporaryDirectory("dae").path
        let path = dir + "/tri.dae"
        try Data(Self.dae.utf8).write(to: URL(fileURLWithPath: path))
        let (scene, info) = try SceneFile.loadWithInfo(path: path)
        let m = try #require(mesh(scene))
        #expect(info.format == .dae && info.variant.hasPrefix("COLLADA"))
        #expect(m.triangleCount == 1)
        for p in [Vec3(0, 0, -2), Vec3(1, 0, -2), Vec3(0, 1, -2)] {
            #expect(m.positions.contains { maxDiff($0, p) < 1e-5 }, "\(p) missing from \(m.positions)")
        }
        let material = m.materials[m.groups.first?.material ?? 0]
        #expect(material.name == "red" && material.baseColor == Vec4(1, 0, 0, 1), "\(material.name) \(material.baseColor)")
        // Detected by content too.
        let renamed = dir + "/model.bin"
        try FileManager.default.copyItem(atPath: path, toPath: renamed)
        #expect(try SceneFile.loadWithInfo(path: renamed).info.format == .dae)
    }
}

@Suite struct Imported3DSTests {
    init() { useBuiltImporter() }

    /// A 3DS file written chunk by chunk: one object, one triangle.
    static func triangle3DS() -> [UInt8] {
        func chunk(_ id: UInt16, _ body: [UInt8]) -> [UInt8] {
            var out: [UInt8] = []
            withUnsafeBytes(of: id.littleEndian) { out += $0 }
            withUnsafeBytes(of: UInt32(6 + body.count).littleEndian) { out += $0 }
            return out + body
        }
        func u16(_ v: UInt16) -> [UInt8] { withUnsafeBytes(of: v.littleEndian) { Array($0) } }
        func f32(_ v: Float) -> [UInt8] { withUnsafeBytes(of: v.bitPattern.littleEndian) { Array($0) } }
        let vertices = u16(3) + [Float(0), 0, 0, 2, 0, 0, 0, 3, 0].flatMap(f32)
        let faces = u16(1) + u16(0) + u16(1) + u16(2) + u16(0)
        let mesh = chunk(0x4100, chunk(0x4110, vertices) + chunk(0x4120, faces))
        let object = chunk(0x4000, Array("tri\0".utf8) + mesh)
        return chunk(0x4D4D, chunk(0x0002, [3, 0, 0, 0]) + chunk(0x3D3D, object))
    }

    @Test func a3DSTriangle() throws {
        let dir = TestData.temporaryDirectory("3ds").path
        let path = dir + "/tri.3ds"
        try Data(Self.triangle3DS()).write(to: URL(fileURLWithPath: path))
        let (scene, info) = try SceneFile.loadWithInfo(path: path)
        let m = try #require(mesh(scene))
        #expect(info.format == .threeDS && info.variant.hasPrefix("3DS"))
        #expect(m.triangleCount == 1)
        let extent = m.bounds.size
        // The triangle's legs, 2 and 3 units, whatever axes the importer maps them to.
        #expect(Set([extent.x, extent.y, extent.z].map { ($0 * 1000).rounded() }) == Set([0, 2000, 3000]), "\(m.positions)")
        // Detected by content too.
        let renamed = dir + "/model.bin"
        try FileManager.default.copyItem(atPath: path, toPath: renamed)
        #expect(try SceneFile.loadWithInfo(path: renamed).info.format == .threeDS)
    }
}
