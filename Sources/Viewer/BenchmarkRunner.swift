// BenchmarkRunner — renders warm-up + measured frames along an eye path and summarises them.
import Foundation
import HeadTracking
import RenderCore

/// Where the eye is during a bench or export.
public enum BenchmarkEye: Sendable {
    /// Fixed: a camera JSON's matrices (the scene in its own coordinates).
    case camera(Camera)
    /// The built-in path: a slow figure-eight in front of the screen (see `BenchmarkRunner.figureEight`).
    case figureEight
    /// A head-track log replayed by frame time (frame i at i / pathRate seconds, looping).
    case track(path: String)

    /// The name written to results.
    public var name: String {
        switch self {
        case .camera: return "camera"
        case .figureEight: return "figure-eight"
        case .track: return "track"
        }
    }
}

/// What to measure.
public struct BenchmarkConfiguration: Sendable {
    /// The scene as named on the command line.
    public var scene: String
    /// Image size in pixels (ignored with `.camera`, whose size wins).
    public var width: Int, height: Int
    /// Render threads.
    public var threads: Int
    /// Measured frames per repeat.
    public var frames: Int
    /// Unmeasured frames before each repeat.
    public var warmup: Int
    /// Whole measurements to run.
    public var repeats: Int = 1
    /// The eye motion.
    public var eye: BenchmarkEye
    /// The physical screen (metres) for the off-axis frustum.
    public var screen: ScreenGeometry = .fallback
    /// Frame rate at which the eye path is sampled (Hz): frame i is at time i / pathRate.
    public var pathRate: Double = 60
    /// Two-sided lighting for meshes (glref `--two-sided`).
    public var twoSided = false
    /// Label pairing this result in `--compare`.
    public var label = "default"
    /// Head-tracking flags applied to `--track` replays (filter, movement scale…); `head`,
    /// `eye` and `loop` are set by the runner.
    public var trackOptions = HeadTrackingOptions()

    public init(scene: String, width: Int = 1280, height: Int = 720, threads: Int = CoreCount.available,
                frames: Int = 100, warmup: Int = 10, eye: BenchmarkEye = .figureEight) {
        self.scene = scene; self.width = width; self.height = height; self.threads = threads
        self.frames = frames; self.warmup = warmup; self.eye = eye
    }
}

/// Runs benchmarks. A frame's time is the wall-clock time of `Scene.render` (clear to
/// complete framebuffer); allocations are counted over the whole frame iteration (eye/pose
/// sampling, camera and render) on every thread.
public enum BenchmarkRunner {
    /// What `latency` means in bench results.
    public static let latencyDefinition =
        "publish = the moment the frame loop obtains the replayed pose (replay is sampled by frame time, so there is no earlier publish event); complete = Scene.render returned with the framebuffer finished; latency = complete - publish (ms)"

    /// Figure-eight period (seconds).
    public static let figureEightPeriod = 8.0

    /// The built-in eye path at time `t` seconds: a horizontal figure-eight (Lissajous 1:2)
    /// 0.6 m in front of the screen, ±0.15 m across, ±0.05 m up and down, one loop per 8 s.
    public static func figureEight(at t: Double) -> Vec3 {
        let w = 2 * Double.pi * t / figureEightPeriod
        return Vec3(Float(0.15 * sin(w)), Float(0.05 * sin(2 * w)), 0.6)
    }

    /// Opens the scene and measures it.
    public static func run(_ config: BenchmarkConfiguration, progress: ((String) -> Void)? = nil) throws -> BenchmarkResult {
        let scene = try BenchmarkSceneFactory.make(config.scene, screen: config.screen,
                                                   ownCoordinates: { if case .camera = config.eye { return true }; return false }(),
                                                   twoSided: config.twoSided)
        return try run(config, scene: scene, progress: progress)
    }

    /// Measures an already opened scene.
    /// `lastFrame` receives the framebuffer after the last measured frame (e.g. to save it).
    public static func run(_ config: BenchmarkConfiguration, scene: Scene, progress: ((String) -> Void)? = nil,
                           lastFrame: ((Framebuffer) throws -> Void)? = nil) throws -> BenchmarkResult {
        var width = config.width, height = config.height
        if case .camera(let c) = config.eye {
            width = c.width; height = c.height
            BenchmarkSceneFactory.setBackground(scene, c.background)
        }
        let context = RenderContext(threads: config.threads)
        let fb = Framebuffer(width: width, height: height)
        let n = config.frames
        var allTimes: [Double] = []
        var runs: [FrameStatistics] = []
        var stageNames: [String] = []
        var stageSamples: [[Double]] = []
        var latencies: [Double] = []
        var allocCalls: UInt64 = 0, allocBytes: UInt64 = 0, allocFrames = 0
        // Per-frame scratch, allocated before any measured frame.
        var times = [Double](repeating: 0, count: n)
        var lat = [Double](repeating: 0, count: n)
        var perFrameCalls = [UInt64](repeating: 0, count: n)
        var perFrameBytes = [UInt64](repeating: 0, count: n)
        var stageScratch = [[Double]]()

        for rep in 0..<max(1, config.repeats) {
            progress?("repeat \(rep + 1)/\(max(1, config.repeats))")
            let eyeSource = try EyeSampler(config.eye, config: config, width: width, height: height)
            for i in 0..<(config.warmup + n) {
                let measured = i >= config.warmup
                let a0 = AllocationCounter.snapshot()
                let tPublish = MonotonicClock.now()
                let cam = eyeSource.camera(frame: i)
                let t0 = MonotonicClock.now()
                let stats = scene.render(camera: cam, into: fb, context: context)
                let t1 = MonotonicClock.now()
                let a1 = AllocationCounter.snapshot()
                if i == 0 && rep == 0 {
                    stageNames = stageList(stats)
                    stageScratch = stageNames.map { _ in [Double](repeating: 0, count: n) }
                    stageSamples = stageNames.map { _ in [] }
                }
                guard measured else { continue }
                let k = i - config.warmup
                times[k] = (t1 - t0) * 1000
                lat[k] = (t1 - tPublish) * 1000
                let d = a1.since(a0)
                perFrameCalls[k] = d.calls; perFrameBytes[k] = d.bytes
                fillStages(stats, into: &stageScratch, at: k)
            }
            allTimes += times
            runs.append(FrameStatistics(times))
            if case .track = config.eye { latencies += lat }
            for j in stageSamples.indices { stageSamples[j] += stageScratch[j] }
            for k in 0..<n {
                allocCalls += perFrameCalls[k]; allocBytes += perFrameBytes[k]
                if perFrameCalls[k] > 0 { allocFrames += 1 }
            }
        }
        try lastFrame?(fb)
        let total = Double(allTimes.count)
        let allocations = BenchmarkAllocations(
            method: AllocationCounter.isActive ? "malloc-interposer" : "unavailable",
            callsPerFrame: total > 0 ? Double(allocCalls) / total : 0,
            bytesPerFrame: total > 0 ? Double(allocBytes) / total : 0,
            framesWithAllocations: allocFrames)
        var trackFile: String? = nil
        if case .track(let p) = config.eye { trackFile = p }
        let stages = zip(stageNames, stageSamples).map { BenchmarkStage(name: $0, samples: $1) }
        return BenchmarkResult(
            label: config.label, scene: config.scene, sceneName: scene.name,
            primitiveKind: BenchmarkSceneFactory.primitiveKind(scene), primitives: scene.primitiveCount,
            width: width, height: height, threads: context.threads,
            warmupFrames: config.warmup, measuredFrames: n, repeats: max(1, config.repeats),
            eye: config.eye.name, trackFile: trackFile, pathRate: config.pathRate,
            build: BenchmarkEnvironment.buildConfiguration, cpu: BenchmarkEnvironment.cpuModel,
            cores: CoreCount.available, date: BenchmarkEnvironment.now(),
            frameMs: allTimes, runs: runs, stages: stages,
            peakResidentBytes: BenchmarkEnvironment.peakResidentBytes(), allocations: allocations,
            latency: latencies.isEmpty ? nil : FrameStatistics(latencies),
            latencyDefinition: latencies.isEmpty ? nil : latencyDefinition)
    }

    /// Stage names a frame reports: named stages (splats) or the rasterizer's (meshes).
    static func stageList(_ s: FrameStats) -> [String] {
        if !s.stages.isEmpty { return s.stages.map(\.name) }
        return ["clear", "vertex", "setup+bin", "raster"]
    }

    static func fillStages(_ s: FrameStats, into out: inout [[Double]], at k: Int) {
        if !s.stages.isEmpty {
            for j in 0..<min(out.count, s.stages.count) { out[j][k] = s.stages[j].ms }
        } else if out.count == 4 {
            out[0][k] = s.clearMs; out[1][k] = s.raster.vertexMs; out[2][k] = s.raster.setupMs; out[3][k] = s.raster.rasterMs
        }
    }
}

/// The camera of frame i for an eye mode (deterministic: depends on i only).
final class EyeSampler {
    let eye: BenchmarkEye
    let session: HeadTrackingSession?
    let screen: ScreenGeometry
    let width: Int, height: Int
    let rate: Double

    init(_ eye: BenchmarkEye, config: BenchmarkConfiguration, width: Int, height: Int) throws {
        self.eye = eye; self.width = width; self.height = height; self.rate = config.pathRate
        if case .track(let path) = eye {
            var o = config.trackOptions
            o.head = .replay(path: path); o.eye = nil; o.loop = true; o.recordPath = nil
            let s = try HeadTrackingSession(options: o, screenFlag: config.screen)
            session = s
            screen = s.screen
        } else {
            session = nil
            screen = config.screen
        }
    }

    func camera(frame i: Int) -> Camera {
        let t = Double(i) / rate
        switch eye {
        case .camera(let c): return c
        case .figureEight:
            return OffAxisFrustum.camera(eye: BenchmarkRunner.figureEight(at: t), screen: screen, width: width, height: height)
        case .track:
            let pose = session!.pose(atFrameTime: t)
            return OffAxisFrustum.camera(eye: pose.eye, screen: screen, width: width, height: height)
        }
    }
}
