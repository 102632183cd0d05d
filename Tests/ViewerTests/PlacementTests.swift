import Foundation
import Procedural
import RenderCore
import SceneIO
import TestSupport
import Testing
import Viewer

@Suite("Placing models behind the screen")
struct PlacementTests {
    static let screen = ScreenGeometry(width: 0.6, height: 0.34)

    @Test("the fit puts the model's bounds inside the box behind the screen", arguments: UpAxis.allCases)
    func fitsInsideTheBox(up: UpAxis) {
        let bounds = Bounds(min: Vec3(10, -3, 100), max: Vec3(14, 5, 101))
        let fit = SceneFit(bounds: bounds, screen: Self.screen, depth: 0.6)
        let m = fit.modelMatrix(Placement(up: up))
        for i in 0..<8 {
            let c = Vec3(i & 1 == 0 ? 10 : 14, i & 2 == 0 ? -3 : 5, i & 4 == 0 ? 100 : 101)
            let p = m.transform(point: c)
            #expect(abs(p.x) <= 0.3 + 1e-4 && abs(p.y) <= 0.17 + 1e-4 && p.z <= 1e-4 && p.z >= -0.6 - 1e-4, "\(up): \(p)")
        }
        // The centre lands at the box centre.
        let centre = m.transform(point: bounds.center)
        #expect(abs(centre.x) < 1e-4 && abs(centre.y) < 1e-4 && abs(centre.z + 0.3) < 1e-4)
    }

    @Test("the chosen up axis points up on screen")
    func upAxisPointsUp() {
        for up in UpAxis.allCases {
            let axis: Vec3
            switch up {
            case .posX: axis = Vec3(1, 0, 0)
            case .negX: axis = Vec3(-1, 0, 0)
            case .posY: axis = Vec3(0, 1, 0)
            case .negY: axis = Vec3(0, -1, 0)
            case .posZ: axis = Vec3(0, 0, 1)
            case .negZ: axis = Vec3(0, 0, -1)
            }
            #expect((up.rotation.rotate(axis) - Vec3(0, 1, 0)).length < 1e-5, "\(up)")
        }
        #expect(UpAxis(parsing: "+Y") == .posY && UpAxis(parsing: "-z") == .negZ && UpAxis(parsing: "w") == nil)
        // 3DGS captures (right, down, forward) are shown with forward pointing into the screen.
        #expect((UpAxis.negY.rotation.rotate(Vec3(0, 0, 1)) - Vec3(0, 0, -1)).length < 1e-5)
    }

    @Test("a placement survives its sidecar; a malformed sidecar is reported")
    func sidecarRoundTrip() throws {
        let dir = TestData.temporaryDirectory()
        let file = dir.appendingPathComponent("model.ply").path
        var p = Placement(up: .negZ)
        p.yaw = 0.5; p.pitch = -0.25; p.zoom = 1.5; p.pan = [0.01, -0.02, 0.03]
        try p.save(sidecarFor: file)
        #expect(try Placement.load(sidecarFor: file) == p)
        #expect(try Placement.load(sidecarFor: dir.appendingPathComponent("none.ply").path) == nil)
        try Data("{\"up\": \"sideways\"}".utf8).write(to: URL(fileURLWithPath: Placement.sidecarPath(for: file)))
        #expect(throws: ViewerError.self) { try Placement.load(sidecarFor: file) }
        try Data(#"{"up": "y", "zoom": 0}"#.utf8).write(to: URL(fileURLWithPath: Placement.sidecarPath(for: file)))
        do {
            _ = try Placement.load(sidecarFor: file)
            Issue.record("a zero zoom was accepted")
        } catch {
            #expect("\(error)".hasSuffix(".splatframe.json: not a placement file: zoom: expected a zoom factor in 0.0001…10000, found 0"), "\(error)")
        }
        try Data(#"{"up": "-y"}"#.utf8).write(to: URL(fileURLWithPath: Placement.sidecarPath(for: file)))
        #expect(try Placement.load(sidecarFor: file) == Placement(up: .negY))   // a hand-written sidecar needs only "up"
    }

    @Test("robust bounds ignore floaters")
    func robustBounds() {
        var pts = (0..<1000).map { i in Vec3(Float(i % 10) / 10, Float(i / 100) / 10, 0) }
        pts.append(Vec3(1000, -1000, 5000))
        let b = RobustBounds.of(pts)
        #expect(b.max.x < 1.01 && b.min.y > -0.01 && b.max.z < 1)
    }
}

@Suite("Opening files")
struct SceneLoaderTests {
    static let screen = ScreenGeometry(width: 0.6, height: 0.34)

    @Test("a splat file opens as a fitted splat scene that draws, alone and inside the room")
    func splatFile() throws {
        let dir = TestData.temporaryDirectory()
        let path = dir.appendingPathComponent("object.ply").path
        try SceneFile.save(.splats(SplatSceneGenerator.object(count: 3000, shDegree: 1)), to: path)
        let cam = OffAxisFrustum.camera(eye: Vec3(0, 0, 0.6), screen: Self.screen, width: 160, height: 90)
        for room in [false, true] {
            var options = SceneLoader.ModelOptions()
            options.room = room
            let scene = try SceneLoader.load(path: path, options: options).scene(screen: Self.screen)
            #expect(scene is ModelScene && scene.primitiveCount == 3000)
            let fb = Framebuffer(width: 160, height: 90)
            _ = scene.render(camera: cam, into: fb, context: RenderContext(threads: 2))
            let drawn = fb.depthArray.filter(\.isFinite).count
            #expect(room ? drawn == 160 * 90 : drawn > 160 * 90 / 20, "room \(room): \(drawn) pixels drawn")
        }
    }

    @Test("built-in scene names and their errors")
    func builtIns() throws {
        #expect(try SceneLoader.load(path: "generate:2k").scene(screen: Self.screen).primitiveCount == 2000)
        #expect(try SceneLoader.load(path: "sphere:1000").scene(screen: Self.screen).primitiveCount > 500)
        #expect(try SceneLoader.load(path: "cube").scene(screen: Self.screen).primitiveCount > 10)
        for bad in ["generate:0", "generate:lots", "sphere:2", "/no/such/file.ply"] {
            #expect(throws: ViewerError.self, "\(bad)") { try SceneLoader.load(path: bad) }
        }
    }

    @Test("a malformed model file is reported with the reader's one-line error")
    func malformedFile() throws {
        let dir = TestData.temporaryDirectory()
        let path = dir.appendingPathComponent("bad.ply").path
        try Data("ply\nformat binary_little_endian 1.0\nelement vertex 1000000000000\nproperty float x\nend_header\n".utf8)
            .write(to: URL(fileURLWithPath: path))
        do {
            _ = try SceneLoader.load(path: path)
            Issue.record("accepted a lying header")
        } catch {
            #expect("\(error)".contains("bad.ply") && !"\(error)".contains("\n"), "\(error)")
        }
    }
}
