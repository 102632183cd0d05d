// The fast renderer against the reference on the shared real-world splat files.
import Foundation
import RenderCore
import SceneIO
import SplatRender
import Testing
import TestSupport

@Suite(.enabled(if: TestData.isAvailable, TestData.skipMessage))
struct RealSceneTests {
    typealias H = SplatTestHelpers

    static func load(_ name: String) throws -> SplatCloud {
        guard case .splats(let c) = try SceneFile.load(path: TestData.path("splats/\(name)")) else {
            throw CocoaError(.fileReadCorruptFile)
        }
        return c
    }

    /// A camera in front of the cloud's bounds (looking down −Z at the centre), small image.
    static func frontCamera(_ cloud: SplatCloud, width: Int, height: Int, distance: Float = 1.6,
                            offset: Vec3 = .zero) -> Camera {
        let b = cloud.bounds
        let centre = (b.min + b.max) / 2, size = (b.max - b.min).max()
        let eye = centre + Vec3(0, 0, size * distance) + offset * size
        return H.lookAtCamera(eye: eye, target: centre, width: width, height: height, fovY: 45,
                              near: 0.01 * size, background: Vec3(0.1, 0.1, 0.12))
    }

    @Test func fruitDropsSH3WithBenchCamera() throws {
        let cloud = try Self.load("fruit_drops_minimal.ply")
        #expect(cloud.shDegree == 3 && cloud.count == 4721)
        // The bench camera (bench/cams/fruit_drops.json) at 160×90: same matrices, smaller image.
        let camPath = TestData.root.deletingLastPathComponent().appendingPathComponent("bench/cams/fruit_drops.json").path
        var cam = Self.frontCamera(cloud, width: 160, height: 90)
        if let data = FileManager.default.contents(atPath: camPath),
           let o = try JSONSerialization.jsonObject(with: data) as? [String: Any],
           let v = o["view"] as? [Double], let p = o["projection"] as? [Double] {
            cam = Camera(width: 160, height: 90, view: Matrix4(columnMajor: v.map(Float.init)),
                         projection: Matrix4(columnMajor: p.map(Float.init)))
        }
        let cmp = H.expectMatch(cloud, camera: cam, name: "fruit_drops")
        #expect(cmp.psnr >= 50)
        H.expectMatch(cloud, camera: Self.frontCamera(cloud, width: 120, height: 90, offset: Vec3(0.6, 0.3, 0)),
                      name: "fruit_drops-oblique")
    }

    @Test func guitarCompressedPLY() throws {
        let cloud = try Self.load("pc-guitar.compressed.ply")
        #expect(cloud.count == 90854)
        H.expectMatch(cloud, camera: Self.frontCamera(cloud, width: 64, height: 96, distance: 1.2), name: "guitar")
    }

    @Test func threePointsFromTrain() throws {
        let cloud = try Self.load("ms-test-splat.3-points-from-train.ply")
        #expect(cloud.count == 3 && cloud.shDegree == 3)
        // The three splats are far apart and small: look at each from ~6 of its largest sigmas.
        for i in 0..<cloud.count {
            let p = cloud.positions[i], s = cloud.scales[i].max()
            let cam = H.lookAtCamera(eye: p + Vec3(0.3, 0.2, 1).normalized * (6 * s), target: p,
                                     width: 96, height: 72, near: 0.01 * s, background: Vec3(0.1, 0.1, 0.12))
            H.expectMatch(cloud, camera: cam, name: "train3-\(i)", minCovered: 5)
        }
    }
}
