// SceneIOTests — writers round-trip through the readers; the fast 3DGS path equals the reference.
import Foundation
import Testing
import RenderCore
@testable import SceneIO
import TestSupport

struct RoundTripTests {
    @Test(arguments: [0, 1, 2, 3, 4])
    func gaussianPLYRoundTrip(degree: Int) throws {
        let c = syntheticCloud(count: 300, degree: degree)
        let bytes = GaussianPLYWriter.encode(c)
        let header = String(decoding: bytes.prefix(4000), as: UTF8.self)
        // Degree 4: all 72 f_rest_* written (24 per channel, channel-major).
        #expect(header.contains("f_rest_\(SplatCloud.restCount(degree: degree) * 3 - 1)\n") == (degree > 0))
        let back = try #require(splats(try loadBytes(bytes, "x.ply")))
        #expect(back.count == 300 && back.shDegree == degree)
        #expect(back.positions == c.positions)
        #expect(back.dc == c.dc)
        #expect(back.shRest == c.shRest)
        for i in 0..<c.count {
            #expect(abs(back.opacities[i] - c.opacities[i]) < 1e-5)
            #expect(maxDiff(back.scales[i], c.scales[i]) < 1e-6)
            #expect(angle(back.rotations[i], c.rotations[i]) < 1e-3)
        }
    }

    @Test func splatRoundTrip() throws {
        let c = syntheticCloud(count: 200, degree: 0)
        let back = try #require(splats(try loadBytes(SplatFileWriter.encode(c), "x.splat")))
        #expect(back.positions == c.positions && back.scales == c.scales)
        for i in 0..<c.count {
            #expect(abs(back.opacities[i] - c.opacities[i]) <= 0.5 / 255 + 1e-6)
            let want = c.baseColor(i).replacing(with: 0, where: c.baseColor(i) .< 0).replacing(with: 1, where: c.baseColor(i) .> 1)
            #expect(maxDiff(back.baseColor(i), want) <= 0.5 / 255 + 1e-5)
            #expect(angle(back.rotations[i], c.rotations[i]) < 0.05)
        }
    }

    @Test func meshAndPointsRoundTrip() throws {
        let m = TriangleMesh(positions: [Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0)], indices: [0, 1, 2],
                             normals: [Vec3(0, 0, 1), Vec3(0, 0, 1), Vec3(0, 0, 1)], uvs: [Vec2(0, 0), Vec2(1, 0), Vec2(0, 1)],
                             colors: [Vec4(1, 0, 0, 1), Vec4(0, 1, 0, 1), Vec4(0, 0, 1, 1)])
        let back = try #require(mesh(try loadBytes(MeshPLYWriter.encode(m), "m.ply")))
        #expect(back.positions == m.positions && back.indices == m.indices && back.normals == m.normals)
        #expect(back.uvs == m.uvs && back.colors == m.colors)
        let p = PointCloud(positions: [Vec3(1, 2, 3)], colors: [Vec4(1, 1, 0, 1)])
        let pb = try #require(points(try loadBytes(MeshPLYWriter.encode(p), "p.ply")))
        #expect(pb.positions == p.positions && pb.colors == p.colors)
    }

    @Test func convertByExtension() throws {
        let dir = TestData.temporaryDirectory("sceneio-convert")
        let src = dir.appendingPathComponent("a.ply").path
        try GaussianPLYWriter.write(syntheticCloud(count: 50, degree: 1), to: src)
        let dst = dir.appendingPathComponent("b.splat").path
        let info = try SceneFile.convert(input: src, output: dst)
        #expect(info.count == 50)
        let back = try #require(splats(try SceneFile.load(path: dst)))
        #expect(back.count == 50)
        #expect(throws: SceneIOError.self) { try SceneFile.convert(input: src, output: dir.appendingPathComponent("c.obj").path) }
    }

    /// The fast binary path and the generic reference decoder agree exactly.
    @Test(arguments: [0, 1, 3, 4])
    func fastPathMatchesReference(degree: Int) throws {
        let bytes = GaussianPLYWriter.encode(syntheticCloud(count: 1000, degree: degree, seed: 7))
        try bytes.withUnsafeBytes { raw in
            let view = ByteView(bytes: raw, file: "t.ply")
            let h = try PLYHeader.parse(view)
            let fast = try #require(try PLYReader.readSplatsFast(h, view, progress: nil))
            let ref = try PLYReader.readSplatsReference(h, view, progress: nil)
            #expect(fast.positions == ref.positions && fast.scales == ref.scales && fast.rotations == ref.rotations)
            #expect(fast.opacities == ref.opacities && fast.dc == ref.dc && fast.shRest == ref.shRest)
        }
    }

    @Test(.enabled(if: TestData.isAvailable, TestData.skipMessage))
    func fastPathMatchesReferenceOnFruit() throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: TestData.path("splats/fruit_drops_minimal.ply")))
        try data.withUnsafeBytes { raw in
            let view = ByteView(bytes: raw, file: "fruit")
            let h = try PLYHeader.parse(view)
            let fast = try #require(try PLYReader.readSplatsFast(h, view, progress: nil))
            let ref = try PLYReader.readSplatsReference(h, view, progress: nil)
            #expect(fast.positions == ref.positions && fast.shRest == ref.shRest && fast.rotations == ref.rotations)
            #expect(fast.opacities == ref.opacities && fast.scales == ref.scales)
        }
    }

    @Test func progressIsReported() throws {
        let bytes = GaussianPLYWriter.encode(syntheticCloud(count: 100, degree: 0))
        nonisolated(unsafe) var last = (0, 0)
        _ = try SceneFile.load(data: Data(bytes), name: "p.ply") { done, total in last = (done, total) }
        #expect(last.0 == bytes.count && last.1 == bytes.count)
    }
}
