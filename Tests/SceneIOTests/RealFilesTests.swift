// SceneIOTests — counts and first/last records of the real files in ../shared/testdata.
import Foundation
import Testing
import RenderCore
@testable import SceneIO
import TestSupport

@Suite(.enabled(if: TestData.isAvailable, TestData.skipMessage))
struct RealFilesTests {
    @Test func bunnyASCII() throws {
        let m = try #require(mesh(try loadTestFile("meshes/bun_zipper_ascii.ply")))
        #expect(m.vertexCount == 35_947)
        #expect(m.triangleCount == 69_451)
        #expect(m.positions[0] == Vec3(-0.0378297, 0.12794, 0.00447467))
        #expect(m.positions[35_946] == Vec3(-0.0400442, 0.15362, -0.00816685))
        #expect(Array(m.indices.prefix(3)) == [20399, 21215, 21216])
        #expect(Array(m.indices.suffix(3)) == [17345, 17346, 17277])
    }

    @Test func bunnyBinary() throws {
        let m = try #require(mesh(try loadTestFile("meshes/bun_zipper_draco_binary.ply")))
        #expect(m.vertexCount == 34_834)
        #expect(m.triangleCount == 69_451)
        #expect(m.positions[0] == Vec3(-0.0599651001393795, 0.04697230085730553, 0.03367359936237335))
        #expect(m.positions[34_833] == Vec3(-0.07182220369577408, 0.06661540269851685, 0.0237319003790617))
        #expect(Array(m.indices.prefix(3)) == [32362, 1, 2])
    }

    /// The two bunnies are different meshes (the binary one was re-encoded and welded), but
    /// they describe the same surface: same bounds, same triangle count, comparable area.
    @Test func asciiAndBinaryBunnyAgree() throws {
        let a = try #require(mesh(try loadTestFile("meshes/bun_zipper_ascii.ply")))
        let b = try #require(mesh(try loadTestFile("meshes/bun_zipper_draco_binary.ply")))
        #expect(a.triangleCount == b.triangleCount)
        #expect(maxDiff(a.bounds.min, b.bounds.min) < 1e-4)
        #expect(maxDiff(a.bounds.max, b.bounds.max) < 1e-4)
        func area(_ m: TriangleMesh) -> Float {
            var s: Float = 0
            for t in 0..<m.triangleCount {
                let p = (0..<3).map { m.positions[Int(m.indices[t * 3 + $0])] }
                s += (p[1] - p[0]).cross(p[2] - p[0]).length / 2
            }
            return s
        }
        #expect(abs(area(a) - area(b)) / area(a) < 0.01)
        // Every binary vertex is (within float rounding) a vertex of the ASCII bunny.
        let set = Set(a.positions.map { SIMD3<Int32>(($0 * 1e5).rounded(.toNearestOrEven)) })
        let hits = b.positions.filter { set.contains(SIMD3<Int32>(($0 * 1e5).rounded(.toNearestOrEven))) }.count
        #expect(Double(hits) / Double(b.vertexCount) > 0.99)
    }

    @Test func igeaTristrips() throws {
        let m = try #require(mesh(try loadTestFile("meshes/c3d-igea.ply")))
        #expect(m.vertexCount == 134_345)
        #expect(m.triangleCount == 268_686)              // Σ (strip length − 2), no degenerates
        #expect(m.positions[0] == Vec3(0.008178000338375568, -0.049651000648736954, 0.014658000320196152))
        // Strip 0, 1, 2, 3, …: the second triangle flips to keep the winding.
        #expect(Array(m.indices.prefix(9)) == [0, 1, 2, 2, 1, 3, 2, 3, 4])
    }

    @Test func smallMeshes() throws {
        let cube = try #require(mesh(try loadTestFile("meshes/cube_binary.ply")))
        #expect(cube.vertexCount == 8 && cube.triangleCount == 12)
        #expect(Array(cube.indices.prefix(3)) == [0, 1, 2])
        let ant = try #require(mesh(try loadTestFile("meshes/ant.ply")))
        #expect(ant.vertexCount == 486 && ant.triangleCount == 912)
        let plane = try #require(mesh(try loadTestFile("meshes/airplane.ply")))
        #expect(plane.vertexCount == 1335 && plane.triangleCount == 2452)
    }

    @Test func objFiles() throws {
        let suz = try #require(mesh(try loadTestFile("meshes/c3d-suzanne.obj")))
        #expect(suz.triangleCount == 968)                // 500 faces, quads fanned
        #expect(suz.normals.count == suz.vertexCount)
        let tea = try #require(mesh(try loadTestFile("meshes/c3d-teapot.obj")))
        #expect(tea.vertexCount == 3644 && tea.triangleCount == 6320)
        let spot = try #require(mesh(try loadTestFile("meshes/c3d-spot.obj")))
        #expect(spot.triangleCount == 5856)
        #expect(spot.uvs.count == spot.vertexCount && spot.vertexCount >= 2930)
        #expect(spot.positions.contains(Vec3(0.348799, -0.334989, -0.0832331)))
    }

    @Test func fruitDrops() throws {
        let c = try #require(splats(try loadTestFile("splats/fruit_drops_minimal.ply")))
        #expect(c.count == 4721)
        #expect(c.shDegree == 3)
        #expect(c.shRest.count == 4721 * 45)
        #expect(c.positions[0] == Vec3(0.8868644833564758, 0.17251482605934143, -2.24898624420166))
        #expect(c.dc[0] == Vec3(1.6967978477478027, 1.5846434831619263, 1.4313877820968628))
        #expect(abs(c.opacities[0] - 1 / (1 + expf(-1.2773573398590088))) < 1e-6)
        #expect(maxDiff(c.scales[0], Vec3(expf(-1.7639092206954956), expf(-2.70943546295166), expf(-5.633480072021484))) < 1e-7)
        let q = Quaternion(w: 0.9165499210357666, x: -0.30147138237953186, y: 0.14749760925769806, z: -0.03926654905080795).normalized
        #expect(angle(c.rotations[0], q) < 1e-5 && abs(c.rotations[0].w - q.w) < 1e-6)
        // Channel-major in the file → channel innermost: coefficient 0 of R, G, B = f_rest_0, _15, _30.
        #expect(c.shRest[0] == 0.041336432099342346)
        #expect(c.shRest[1] == 0.017489885911345482)
        #expect(c.shRest[2] == -0.02565416507422924)
        #expect(c.positions[4720] == Vec3(0.9388225674629211, 0.07030398398637772, -2.0253169536590576))
        #expect(abs(c.opacities[4720] - 1 / (1 + expf(3.2840592861175537))) < 1e-6)
    }

    @Test func guitarCompressed() throws {
        let c = try #require(splats(try loadTestFile("splats/pc-guitar.compressed.ply")))
        #expect(c.count == 90_854)
        #expect(c.shDegree == 0)
        #expect(c.positions.allSatisfy { $0.x.isFinite && $0.y.isFinite && $0.z.isFinite })
        #expect(c.rotations.allSatisfy { abs($0.w * $0.w + $0.x * $0.x + $0.y * $0.y + $0.z * $0.z - 1) < 1e-4 })
        #expect(c.opacities.allSatisfy { $0 >= 0 && $0 <= 1 })
        let b = c.bounds
        #expect(b.size.y > 4 && b.size.y < 5)            // a guitar about 4.4 units long
    }

    @Test func minimalFixtures() throws {
        let s = try #require(splats(try loadTestFile("splats/st-minimal.splat")))
        #expect(s.count == 4)
        for v in ["v2", "v3", "v4"] {
            let c = try #require(splats(try loadTestFile("splats/st-minimal-\(v).spz")))
            #expect(c.count == 4, "\(v)")
            #expect(c.shDegree == 0)
        }
        // v3 and v4 hold the same splats (only the container differs).
        let v3 = try #require(splats(try loadTestFile("splats/st-minimal-v3.spz")))
        let v4 = try #require(splats(try loadTestFile("splats/st-minimal-v4.spz")))
        #expect(v3.positions == v4.positions && v3.dc == v4.dc && v3.opacities == v4.opacities && v3.rotations == v4.rotations)
        // .splat positions in the PLY frame equal the .spz ones after RUB → RDF.
        for i in 0..<4 { #expect(maxDiff(s.positions[i], v4.positions[i]) < 1e-3) }
    }

    @Test func infoRendersTextAndJSON() throws {
        let (_, info) = try SceneFile.loadWithInfo(path: TestData.path("splats/fruit_drops_minimal.ply"))
        #expect(info.count == 4721 && info.shDegree == 3 && info.kind == "splats")
        #expect(info.elements.first?.properties.contains("float f_rest_44") == true)
        #expect(info.text.contains("4721 splats, SH degree 3"))
        let obj = try JSONSerialization.jsonObject(with: Data(info.json.utf8)) as? [String: Any]
        #expect(obj?["count"] as? Int == 4721)
    }
}
