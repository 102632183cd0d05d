// KHR_gaussian_splatting files rendered against the capture they came from: SplatFrame's own
// convert (PLY → GLB → render, ≥ 45 dB) and an independent writer that follows the ratified text
// (Scripts/gltf_splats_from_ply.py, python3 + numpy: ≥ 40 dB), its frame turned in the data or in
// a node with an extra turn, shift and scale (the reader turns centres, covariances and SH); and
// both compressed as an SPZ payload (KHR_gaussian_splatting_compression_spz_2: ≥ 30 dB).
import Foundation
import RenderCore
import SceneIO
import SplatRender
import Testing
import TestSupport

@Suite(.enabled(if: TestData.isAvailable, TestData.skipMessage))
struct GLTFSplatRenderTests {
    typealias H = SplatTestHelpers
    static let capture = "splats/fruit_drops_minimal.ply"

    static func load(_ path: String) throws -> SplatCloud {
        guard case .splats(let c) = try SceneFile.load(path: path) else { throw CocoaError(.fileReadCorruptFile) }
        return c
    }

    /// Renders `cloud` with `view` (the camera's own view times a model matrix).
    static func render(_ cloud: SplatCloud, camera: Camera, model: Matrix4 = .identity) -> RGBAImage {
        var cam = camera
        cam.view = camera.view * model
        let fb = Framebuffer(width: cam.width, height: cam.height)
        SplatRenderer(threads: 2).render(SplatRenderer.prepare(cloud), camera: cam, into: fb)
        return fb.image()
    }

    /// Cameras around the capture: in front, and two obliques (the SH show).
    static func cameras(_ cloud: SplatCloud) -> [Camera] {
        [Vec3.zero, Vec3(0.6, 0.3, 0), Vec3(-0.5, -0.4, -0.3)].map {
            RealSceneTests.frontCamera(cloud, width: 160, height: 120, offset: $0)
        }
    }

    static func expectMatch(_ actual: RGBAImage, _ expected: RGBAImage, atLeast db: Double, _ name: String,
                            sourceLocation: SourceLocation = #_sourceLocation) {
        let cmp = ImageComparison(actual, expected)
        print("gltf splats \(name): \(cmp)")
        if cmp.psnr < db {
            let dir = ImageComparison.writeFailureImages(name: name, actual: actual, expected: expected)
            Issue.record("\(name): \(cmp), below \(db) dB (images in \(dir))", sourceLocation: sourceLocation)
        }
    }

    @Test func convertRoundTripRendersAsThePLY() throws {
        let dir = TestData.temporaryDirectory("gltf-roundtrip")
        defer { try? FileManager.default.removeItem(at: dir) }
        let glb = dir.appendingPathComponent("fruit.glb").path
        try SceneFile.convert(input: TestData.path(Self.capture), output: glb)
        let ply = try Self.load(TestData.path(Self.capture)), back = try Self.load(glb)
        #expect(back.count == ply.count && back.shDegree == 3)
        for (i, cam) in Self.cameras(ply).enumerated() {
            Self.expectMatch(Self.render(back, camera: cam), Self.render(ply, camera: cam), atLeast: 45, "roundtrip-\(i)")
        }
    }

    @Test func convertSPZRoundTripRendersAsThePLY() throws {
        let dir = TestData.temporaryDirectory("gltf-spz-roundtrip")
        defer { try? FileManager.default.removeItem(at: dir) }
        let glb = dir.appendingPathComponent("fruit.glb").path
        try SceneFile.convert(input: TestData.path(Self.capture), output: glb, compressGLTF: true)
        let ply = try Self.load(TestData.path(Self.capture)), back = try Self.load(glb)
        #expect(back.count == ply.count && back.shDegree == 3)
        let size = try #require(try FileManager.default.attributesOfItem(atPath: glb)[.size] as? Int)
        #expect(size * 8 < ply.count * 62 * 4)                     // at least 8× smaller than the float accessors
        for (i, cam) in Self.cameras(ply).enumerated() {
            Self.expectMatch(Self.render(back, camera: cam), Self.render(ply, camera: cam), atLeast: 30, "spz-roundtrip-\(i)")
        }
    }

    /// Runs the independent writer; nil (with the reason) when python3 or numpy is missing.
    static func independent(_ arguments: [String], out: String) -> String? {
        let script = TestData.projectRoot.appendingPathComponent("Scripts/gltf_splats_from_ply.py").path
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["python3", script, TestData.path(capture), out] + arguments
        let err = Pipe()
        p.standardError = err
        p.standardOutput = FileHandle.nullDevice
        do { try p.run() } catch { return "cannot start python3: \(error)" }
        let text = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        return p.terminationStatus == 0 ? nil : "the independent writer failed: \(text.suffix(300))"
    }

    static var pythonWithNumpy: Bool {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["python3", "-c", "import numpy"]
        p.standardError = FileHandle.nullDevice
        guard (try? p.run()) != nil else { return false }
        p.waitUntilExit()
        return p.terminationStatus == 0
    }

    @Test(.enabled(if: pythonWithNumpy, "skipped: python3 with numpy is needed for the independent writer"))
    func independentWriterFramesInDataRendersAsThePLY() throws {
        let dir = TestData.temporaryDirectory("gltf-independent")
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("data.glb").path
        if let why = Self.independent(["--frame", "data"], out: out) { Issue.record(Comment(rawValue: why)); return }
        let ply = try Self.load(TestData.path(Self.capture)), glb = try Self.load(out)
        #expect(glb.count == ply.count && glb.shDegree == 3)
        for (i, cam) in Self.cameras(ply).enumerated() {
            Self.expectMatch(Self.render(glb, camera: cam), Self.render(ply, camera: cam), atLeast: 40, "independent-data-\(i)")
        }
    }

    @Test(.enabled(if: pythonWithNumpy, "skipped: python3 with numpy is needed for the independent writer"))
    func independentWriterWithNodeTransformRendersAsThePLY() throws {
        let dir = TestData.temporaryDirectory("gltf-independent-node")
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("node.glb").path
        // The node: a half turn about x (the capture's y-down frame to glTF's), then 50° about (1, 2, 0.5), ×1.5, moved.
        if let why = Self.independent(["--frame", "node", "--rotate", "1,2,0.5,50", "--translate", "0.3,-0.2,1.1", "--scale", "1.5"], out: out) {
            Issue.record(Comment(rawValue: why)); return
        }
        let ply = try Self.load(TestData.path(Self.capture)), glb = try Self.load(out)
        // The file's splats are F·N·p (F: glTF → splat frame, N: the node); the PLY drawn through the same matrix must match.
        let f = Matrix4.rotation(angle: .pi, axis: Vec3(1, 0, 0))
        let node = Matrix4.translation(Vec3(0.3, -0.2, 1.1)) * Matrix4.rotation(angle: 50 * .pi / 180, axis: Vec3(1, 2, 0.5))
            * Matrix4.rotation(angle: .pi, axis: Vec3(1, 0, 0)) * Matrix4.scale(Vec3(repeating: 1.5))
        let model = f * node
        for (i, cam0) in Self.cameras(glb).enumerated() {
            Self.expectMatch(Self.render(glb, camera: cam0), Self.render(ply, camera: cam0, model: model), atLeast: 40, "independent-node-\(i)")
        }
    }

    @Test(.enabled(if: pythonWithNumpy, "skipped: python3 with numpy is needed for the independent writer"),
          arguments: [["--frame", "data"], ["--frame", "node", "--rotate", "1,2,0.5,50", "--translate", "0.3,-0.2,1.1", "--scale", "1.5"]])
    func independentSPZWriterRendersAsThePLY(arguments: [String]) throws {
        let dir = TestData.temporaryDirectory("gltf-independent-spz")
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("spz.glb").path
        if let why = Self.independent(arguments + ["--spz"], out: out) { Issue.record(Comment(rawValue: why)); return }
        let ply = try Self.load(TestData.path(Self.capture)), glb = try Self.load(out)
        #expect(glb.count == ply.count && glb.shDegree == 3)
        var model = Matrix4.identity
        if arguments.contains("node") {              // as in independentWriterWithNodeTransformRendersAsThePLY
            let f = Matrix4.rotation(angle: .pi, axis: Vec3(1, 0, 0))
            model = f * Matrix4.translation(Vec3(0.3, -0.2, 1.1)) * Matrix4.rotation(angle: 50 * .pi / 180, axis: Vec3(1, 2, 0.5))
                * Matrix4.rotation(angle: .pi, axis: Vec3(1, 0, 0)) * Matrix4.scale(Vec3(repeating: 1.5))
        }
        for (i, cam) in Self.cameras(glb).enumerated() {
            Self.expectMatch(Self.render(glb, camera: cam), Self.render(ply, camera: cam, model: model), atLeast: 30,
                             "independent-spz-\(arguments[1])-\(i)")
        }
    }
}
