// SceneIOTests — a glTF holding a textured mesh and KHR_gaussian_splatting splats (as float
// accessors, or SPZ-compressed) opens as one mixed scene: the mesh through the importer child
// (which is given a copy without the splat primitives), the splats through our reader, both in
// glTF's frame.
import Foundation
import Testing
import RenderCore
@testable import SceneIO
import TestSupport

@Suite(.serialized) struct GLTFMixedTests {

    /// Three splats in glTF's frame (y up), SH degree 0.
    static let centres = [Vec3(-0.5, 0, 0.4), Vec3(0.5, 0, -0.4), Vec3(1.6, 0, 0)]

    /// The textured quad of `GLTFFixture.texturedQuad` (corners on x = 1 after its node) and, under
    /// a node of its own, `centres` as splats — float accessors or an SPZ payload.
    static func file(spz: Bool, folder: String) throws -> Data {
        var b = try GLTFFixture.texturedQuad().builder(folder: folder)
        let n = centres.count
        let mesh: Int
        if spz {
            // SPZWriter gets (−x, −y, z) of glTF's values: the payload then unpacks as LUF to them.
            var c = SplatCloud(shDegree: 0)
            for p in centres {
                c.append(position: Vec3(-p.x, -p.y, p.z), scale: Vec3(repeating: 0.1), rotation: .identity, opacity: 0.9,
                         dc: SplatCloud.dcFromColor(Vec3(1, 0, 1)))
            }
            mesh = b.spzSplatMesh(payload: try SPZWriter.encode(c), count: n, degree: 0)
        } else {
            mesh = b.uniformSplatMesh(centres: centres, scale: 0.1, opacity: 0.9, colour: Vec3(1, 0, 1))
        }
        let node = b.node(["mesh": mesh])
        b.json["scenes"] = [["nodes": [0, node]]]
        return b.glb()
    }

    @Test(arguments: [false, true])
    func meshAndSplatsOpenAsOneMixedScene(spz: Bool) throws {
        useBuiltImporter()
        let dir = TestData.temporaryDirectory("gltf-mixed")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("mixed.glb").path
        try Self.file(spz: spz, folder: dir.path).write(to: URL(fileURLWithPath: path))
        let (scene, info) = try SceneFile.loadWithInfo(path: path)
        guard case let .mixed(mesh, cloud) = scene else { Issue.record("not a mixed scene: \(info.kind) \(info.warnings)"); return }
        // The quad, placed by its node, with its picture.
        #expect(mesh.triangleCount == 2 && mesh.positions.allSatisfy { abs($0.x - 1) < 1e-5 })
        #expect(mesh.materials.first?.texture?.width == 4)
        // The splats where the file puts them: glTF's frame, as the mesh (not turned into the splat frame).
        #expect(cloud.count == 3)
        for (p, q) in zip(cloud.positions, Self.centres) { #expect(maxDiff(p, q) <= (spz ? 1.0 / 4096 : 0)) }
        #expect(abs(cloud.baseColor(0).x - 1) < 0.01 && abs(cloud.baseColor(0).y) < 0.01)
        #expect(info.kind == "mesh+splats" && info.count == 3 && info.triangles == 2)
        #expect(info.variant.contains("with meshes") && info.elements.contains { $0.name == "triangles" })
        // The importer never saw the splats: no points dropped, nothing about them.
        #expect(!info.warnings.contains { $0.contains("dropped") || $0.contains("not drawn") }, "\(info.warnings)")
    }

    @Test func theImportersCopyHoldsNoSplats() throws {
        let dir = TestData.temporaryDirectory("gltf-mixed-copy")
        defer { try? FileManager.default.removeItem(at: dir) }
        let glb = try Self.file(spz: true, folder: dir.path)
        let json = try glb.withUnsafeBytes { raw in try GLTFContainer.chunks(ByteView(bytes: raw, file: "m.glb")).json }
        let out = try GLTFMeshPart.meshesOnly(json, file: "m.glb", bufferFolder: nil, from: "/tmp/x")
        let root = try #require(try JSONSerialization.jsonObject(with: Data(out)) as? [String: Any])
        let meshes = try #require(root["meshes"] as? [[String: Any]])
        #expect(meshes.count == 1 && (meshes[0]["primitives"] as? [Any])?.count == 1)   // the quad only
        let nodes = try #require(root["nodes"] as? [[String: Any]])
        #expect(nodes[0]["mesh"] as? Int == 0 && nodes[1]["mesh"] == nil)              // the splat node keeps no mesh
        #expect((root["extensionsUsed"] as? [String] ?? []).isEmpty && (root["extensionsRequired"] as? [String] ?? []).isEmpty)
        // A .gltf's buffer files are named from the temporary folder back to the file's own.
        let gltf = Data(#"{"asset":{"version":"2.0"},"buffers":[{"uri":"a b.bin","byteLength":4},{"uri":"data:,x","byteLength":1}]}"#.utf8)
        let moved = try JSONSerialization.jsonObject(with: Data(try GLTFMeshPart.meshesOnly(gltf, file: "m.gltf", bufferFolder: "/data/models",
                                                                                             from: "/tmp/splatframe-meshes-1"))) as? [String: Any]
        let uris = (moved?["buffers"] as? [[String: Any]])?.compactMap { $0["uri"] as? String }
        #expect(uris == ["../../data/models/a b.bin", "data:,x"])
    }

    @Test func withoutAnImporterTheSplatsStillOpenWithAWarning() throws {
        let dir = TestData.temporaryDirectory("gltf-mixed-noimporter")
        defer { try? FileManager.default.removeItem(at: dir) }
        let data = try Self.file(spz: false, folder: dir.path)
        // The importer child refuses (a stand-in that exits at once): the meshes are named in one warning.
        let (scene, info) = try data.withUnsafeBytes { raw -> (LoadedScene, [String]) in
            let view = ByteView(bytes: raw, file: "m.glb")
            let r = try #require(try GLTFSplatReader.readIfSplats(view, directory: nil, meshes: { _ in
                throw SceneIOError.importFailed(file: "m.glb", reason: "the importer is not there")
            }))
            return (r.scene, r.warnings)
        }
        guard case .splats(let c) = scene else { Issue.record("not splats"); return }
        #expect(c.positions[0] == Vec3(-0.5, 0, -0.4))                                // alone: turned into the splat frame
        #expect(info.contains { $0.hasPrefix("m.glb: 1 mesh primitive not drawn: m.glb: the importer is not there") }, "\(info)")
    }
}
