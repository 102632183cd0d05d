import Foundation
import Procedural
import RenderCore
import TestSupport
import Testing
import Viewer
import Bench

/// Renderers reuse their memory: once warmed up, a frame allocates nothing (counted by the
/// bench's malloc interposer, all threads). This is a property of optimised code — debug
/// builds allocate for generic and closure plumbing — so it is checked on the release binary
/// (`make test` builds it first) and, in optimised test builds, in process.
@Suite("No allocation per frame in steady state", .serialized)
struct SteadyStateAllocationTests {
    static let screen = ScreenGeometry(width: 0.6, height: 0.34)
    static let release = TestData.projectRoot.appendingPathComponent(".build/release/splatframe").path

    /// Runs the release binary's `bench` with `args` (plus `--json`) and returns its first result.
    static func benchResult(_ args: [String]) throws -> [String: Any] {
        let json = TestData.temporaryDirectory().appendingPathComponent("bench.json")
        let r = try BinaryLocator.run(release, ["bench"] + args + ["--json", json.path])
        try #require(r.status == 0, "\(r.stderr)")
        let obj = try JSONSerialization.jsonObject(with: Data(contentsOf: json)) as? [String: Any]
        return try #require((obj?["results"] as? [[String: Any]])?.first)
    }

    @Test("the release binary's bench reports zero allocations per frame",
          .enabled(if: FileManager.default.isExecutableFile(atPath: release), "skipped: no release build (make test builds one)"),
          arguments: ["cube", "sphere:20000", "generate:5000"])
    func releaseBench(scene: String) throws {
        let dir = TestData.temporaryDirectory()
        let cam = dir.appendingPathComponent("cam.json")
        let camera = OffAxisFrustum.camera(eye: Vec3(0.05, 0.02, 0.6), screen: Self.screen, width: 320, height: 180)
        try Data(CameraFile.json(camera).utf8).write(to: cam)
        for threads in ["1", "2"] {
            let result = try Self.benchResult([scene, "--camera", cam.path, "--frames", "8", "--warmup", "4", "--threads", threads])
            let alloc = try #require(result["allocations"] as? [String: Any])
            #expect((alloc["callsPerFrame"] as? Double) == 0, "\(scene), \(threads) threads: \(alloc)")
        }
    }

    /// The eye moving (the bench's default figure-eight) brings different parts of a mesh into
    /// view frame after frame; setup storage is sized by the whole draw, so once the warm-up
    /// has seen the figure's extremes nothing grows. Likewise a million splats at 1280×720
    /// through either blend kernel (tile pairs grow with headroom during the warm-up). (Per-chunk buffers used to grow in ~1 of
    /// 60 frames here, and in 10 of 60 for a million triangles.)
    @Test("the release binary's bench allocates nothing per frame while the eye moves",
          .enabled(if: FileManager.default.isExecutableFile(atPath: release), "skipped: no release build (make test builds one)"),
          arguments: [["sphere:200000", "--size", "640x360", "--frames", "60"], ["cube", "--size", "1920x1080", "--frames", "60"],
                      ["generate:1000000", "--frames", "30"], ["generate:1000000", "--frames", "20", "--blend-kernel", "lanes8"]])
    func releaseBenchMovingEye(args: [String]) throws {
        let result = try Self.benchResult(args + ["--warmup", "5", "--threads", "2"])
        let alloc = try #require(result["allocations"] as? [String: Any])
        #expect((alloc["callsPerFrame"] as? Double) == 0, "\(args): \(alloc)")
    }

    /// A streamed SOG: once its levels settle, a frame copies and allocates nothing (the level
    /// choice, the step and the requests run every frame on preallocated arrays).
    @Test("the release binary's bench of a streamed SOG allocates nothing per frame",
          .enabled(if: FileManager.default.isExecutableFile(atPath: release), "skipped: no release build (make test builds one)"),
          .enabled(if: TestData.isAvailable, TestData.skipMessage))
    func releaseBenchStreamedSOG() throws {
        let result = try Self.benchResult([TestData.path("splats/sog/playbot-lod/lod-meta.json"), "--size", "320x180",
                                           "--frames", "8", "--warmup", "4", "--splat-budget", "40k"])
        let alloc = try #require(result["allocations"] as? [String: Any])
        #expect((alloc["callsPerFrame"] as? Double) == 0, "\(alloc)")
        #expect((result["primitives"] as? Int).map { $0 > 0 && $0 <= 40_000 } == true, "\(result["primitives"] ?? "nil")")
    }

    /// A plain capture under a budget, its tree built in memory: while the eye moves, the
    /// selection changes every other frame, and neither re-assembling it, nor drawing a fuller
    /// one, nor measuring the visible area allocates. (Re-assembly used to allocate per block:
    /// ~22 calls a frame here.) Needs no test data: the capture is generated.
    @Test("the release binary's bench of a plain capture under a budget allocates nothing per frame",
          .enabled(if: FileManager.default.isExecutableFile(atPath: release), "skipped: no release build (make test builds one)"))
    func releaseBenchBudgetedCapture() throws {
        let ply = TestData.temporaryDirectory().appendingPathComponent("room.ply").path
        let made = try BinaryLocator.run(Self.release, ["generate", "100000", ply, "--scene", "room"])
        try #require(made.status == 0, "\(made.stderr)")
        for threads in ["1", "2"] {
            let result = try Self.benchResult([ply, "--size", "320x180", "--frames", "60", "--warmup", "4",
                                               "--splat-budget", "20k", "--threads", threads])
            let alloc = try #require(result["allocations"] as? [String: Any])
            #expect((alloc["callsPerFrame"] as? Double) == 0, "\(threads) threads: \(alloc)")
            #expect((result["primitives"] as? Int).map { $0 > 0 && $0 <= 20_000 } == true, "\(result["primitives"] ?? "nil")")
        }
    }

    #if !DEBUG
    @Test("in process: meshes and splats", .enabled(if: AllocationCounter.isInterposed, "a sanitizer owns malloc"),
          arguments: ["cube", "sphere:5000", "generate:3000"])
    func inProcess(scene name: String) throws {
        #expect(AllocationCounter.isActive)
        let scene = try SceneLoader.load(path: name).scene(screen: Self.screen)
        for threads in [1, 2] {
            let context = RenderContext(threads: threads)
            let fb = Framebuffer(width: 320, height: 180)
            let cam = OffAxisFrustum.camera(eye: Vec3(0.05, 0.02, 0.6), screen: Self.screen, width: 320, height: 180)
            for _ in 0..<3 { _ = scene.render(camera: cam, into: fb, context: context) }
            let before = AllocationCounter.snapshot()
            for _ in 0..<5 { _ = scene.render(camera: cam, into: fb, context: context) }
            let a = AllocationCounter.snapshot().since(before)
            #expect(a.calls == 0, "\(name), \(threads) threads: \(a.calls) allocations, \(a.bytes) bytes in 5 frames")
        }
    }
    #endif
}
