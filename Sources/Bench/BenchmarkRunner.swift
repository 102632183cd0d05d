// BenchmarkRunner — renders warm-up + measured frames along an eye path and summarises them.
import SplatLOD
import Viewer
import Foundation
import HeadTracking
import RenderCore
import Settings
import SplatRender
import Workers

/// Where the eye is during a bench or export.
public enum BenchmarkEye: Sendable {
    /// Fixed: a camera JSON's matrices (the scene in its own coordinates).
    case camera(Camera)
    /// The built-in path: a slow figure-eight in front of the screen (`FigureEightEyeSource`).
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
    /// The splat blend kernel (`--blend-kernel`; the image is the same with either).
    public var blendKernel = BlendKernel.native
    /// Measured frames per repeat.
    public var frames: Int
    /// Unmeasured frames before each repeat.
    public var warmup: Int
    /// Whole measurements to run.
    public var repeats: Int = 1
    /// The eye motion.
    public var eye: BenchmarkEye
    /// The viewing set-up (physical screen, movement scale): flags and `config` only, never the
    /// user's own config file unless `configPath` names it.
    public var setup = ViewingSetup()
    /// The config file named by `--config` (nil: none read; the run is hermetic).
    public var config: ConfigFile?
    /// Its path, recorded in the result.
    public var configPath: String?
    /// Frame rate at which the eye path is sampled (Hz): frame i is at time i / pathRate.
    public var pathRate: Double = 60
    /// Two-sided lighting for meshes (glref `--two-sided`).
    public var twoSided = false
    /// The room `cube` names (`--back clip.mp4` …); nil: the plain room.
    public var room: SceneDescription?
    /// Streamed SOG level of detail (`--splat-budget`, `--lod`).
    public var lod = LODOptions()
    /// `--target-fps N`: the frame-time governor chooses the budget of a capture drawn through
    /// levels of detail to hold 1000 / N ms; nil: the budget in `lod` is pinned.
    public var targetFps: Double?
    /// With `targetFps`: also draw the whole capture from every measured frame's eye (outside the
    /// timing) and report the governed pictures' PSNR against it.
    public var measuresQuality = true
    /// Label pairing this result in `--compare`.
    public var label = "default"
    /// Head-tracking flags applied to `--track` replays (filter, recentre, axes…); `head`,
    /// `eye` and `loop` are set by the runner.
    public var trackOptions = HeadTrackingOptions()

    public init(scene: String, width: Int = 1280, height: Int = 720, threads: Int = CoreCount.available,
                frames: Int = 100, warmup: Int = 10, eye: BenchmarkEye = .figureEight) {
        self.scene = scene; self.width = width; self.height = height; self.threads = threads
        self.frames = frames; self.warmup = warmup; self.eye = eye
    }

    /// The replay session of a `.track` run (hermetic: `config` only), looping.
    func replaySession(path: String) throws -> HeadTrackingSession {
        var o = trackOptions
        o.head = .replay(path: path); o.eye = nil; o.loop = true; o.recordPath = nil
        return try HeadTrackingSession(options: o, config: config, configPath: configPath, geometry: setup.trackingGeometry)
    }

    /// The eye source for one repeat (fresh, so every repeat sees the same frames).
    func eyeSource() throws -> EyeSource {
        switch eye {
        case .camera(let c): return FixedCameraSource(camera: c, rate: pathRate)
        case .figureEight: return FigureEightEyeSource(rate: pathRate)
        case .track(let path): return ReplayEyeSource(session: try replaySession(path: path), rate: pathRate)
        }
    }
}

/// Runs benchmarks through `FrameDriver`. A frame's time is the wall-clock time of
/// `Scene.render` (clear to complete framebuffer); allocations are counted over the whole
/// frame iteration (eye/pose sampling, camera and render) on every thread.
public enum BenchmarkRunner {
    /// What `latency` means in bench results.
    public static let latencyDefinition =
        "publish = the moment the frame loop obtains the replayed pose (replay is sampled by frame time, so there is no earlier publish event); complete = Scene.render returned with the framebuffer finished; latency = complete - publish (ms)"

    /// Opens the scene and measures it.
    public static func run(_ config: BenchmarkConfiguration, progress: ((String) -> Void)? = nil) throws -> BenchmarkResult {
        let scene = try BenchmarkSceneFactory.make(config.scene, screen: config.setup.screen.value,
                                                   ownCoordinates: { if case .camera = config.eye { return true }; return false }(),
                                                   twoSided: config.twoSided, room: config.room, lod: config.lod)
        return try run(config, scene: scene, progress: progress)
    }

    /// Measures an already opened scene.
    /// `lastFrame` receives the framebuffer after the last measured frame (e.g. to save it).
    public static func run(_ config: BenchmarkConfiguration, scene: Scene, progress: ((String) -> Void)? = nil,
                           lastFrame: ((Framebuffer) throws -> Void)? = nil) throws -> BenchmarkResult {
        var width = config.width, height = config.height
        if case .camera(let c) = config.eye { width = c.width; height = c.height }
        let context = RenderContext(threads: config.threads, blendKernel: config.blendKernel, producesDepth: false)
        let driver = FrameDriver(scene: scene, setup: config.setup, context: context, width: width, height: height)
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
        var visibleSplats = [Double](repeating: 0, count: n), tilePairs = [Double](repeating: 0, count: n)
        var splatWork: [(Double, Double)] = []
        let governed = try governorRun(config, scene: scene, setup: config.setup, width: width, height: height)
        var stageScratch = [[Double]]()
        // The scene's own stages (video walls' upload, a streamed SOG's level-of-detail step).
        let ownStages = scene.ownStages

        for rep in 0..<max(1, config.repeats) {
            progress?("repeat \(rep + 1)/\(max(1, config.repeats))")
            let source = try config.eyeSource()
            for i in 0..<(config.warmup + n) {
                let measured = i >= config.warmup
                governed?.beforeFrame(driver)
                let a0 = AllocationCounter.snapshot()
                let record = driver.renderFrame(from: source, index: i)
                let a1 = AllocationCounter.snapshot()
                governed?.afterFrame(record, driver: driver, measured: measured)
                if i == 0 && rep == 0 {
                    stageNames = stageList(record.stats) + ownStages.map(\.rawValue)
                    stageScratch = stageNames.map { _ in [Double](repeating: 0, count: n) }
                    stageSamples = stageNames.map { _ in [] }
                }
                guard measured else { continue }
                let k = i - config.warmup
                times[k] = record.renderMs
                lat[k] = record.viewToCompleteMs
                let d = a1.since(a0)
                perFrameCalls[k] = d.calls; perFrameBytes[k] = d.bytes
                fillStages(record.stats, into: &stageScratch, at: k)
                visibleSplats[k] = Double(record.stats.splat?.visibleSplats ?? 0)
                tilePairs[k] = Double(record.stats.splat?.tileSplatPairs ?? 0)
                for (j, stage) in ownStages.enumerated() {
                    stageScratch[stageScratch.count - ownStages.count + j][k] = stage.ms(record.stats)
                }
            }
            allTimes += times
            runs.append(FrameStatistics(times))
            if case .track = config.eye { latencies += lat }
            for j in stageSamples.indices { stageSamples[j] += stageScratch[j] }
            splatWork += zip(visibleSplats, tilePairs).map { ($0, $1) }
            for k in 0..<n {
                allocCalls += perFrameCalls[k]; allocBytes += perFrameBytes[k]
                if perFrameCalls[k] > 0 { allocFrames += 1 }
            }
        }
        try lastFrame?(driver.framebuffer)
        let total = Double(allTimes.count)
        let allocations = BenchmarkAllocations(
            method: AllocationCounter.isActive ? "malloc-interposer" : "unavailable",
            callsPerFrame: total > 0 ? Double(allocCalls) / total : 0,
            bytesPerFrame: total > 0 ? Double(allocBytes) / total : 0,
            framesWithAllocations: allocFrames)
        var trackFile: String? = nil
        if case .track(let p) = config.eye { trackFile = p }
        let stages = zip(stageNames, stageSamples).map { BenchmarkStage(name: $0, samples: $1) }
        var result = BenchmarkResult(
            label: config.label, scene: config.scene, sceneName: scene.name,
            primitiveKind: scene.primitiveKind.rawValue, primitives: scene.primitiveCount,
            width: width, height: height, threads: driver.context.threads,
            warmupFrames: config.warmup, measuredFrames: n, repeats: max(1, config.repeats),
            eye: config.eye.name, trackFile: trackFile, pathRate: config.pathRate,
            build: BenchmarkEnvironment.buildConfiguration, cpu: BenchmarkEnvironment.cpuModel,
            cores: CoreCount.available, date: BenchmarkEnvironment.now(),
            frameMs: allTimes, runs: runs, stages: stages,
            peakResidentBytes: BenchmarkEnvironment.peakResidentBytes(), allocations: allocations,
            latency: latencies.isEmpty ? nil : FrameStatistics(latencies),
            latencyDefinition: latencies.isEmpty ? nil : latencyDefinition)
        result.settings = try settings(of: config)
        result.governor = governed?.report
        result.governor?.frameP95Ms = FrameStatistics.percentile(allTimes.sorted(), 95)
        if splatWork.contains(where: { $0.1 > 0 }) {
            result.splatWork = BenchmarkSplatWork(visibleSplats: Int(FrameStatistics(splatWork.map(\.0)).median),
                                                  tileSplatPairs: Int(FrameStatistics(splatWork.map(\.1)).median),
                                                  blendKernel: config.blendKernel.rawValue,
                                                  blendInstructionSet: CPUDispatch.instructionSet(for: config.blendKernel).name)
        }
        result.machine = BenchmarkMachine(
            family: CPUDispatch.cpuSignature.family, model: CPUDispatch.cpuSignature.model,
            cpuHasAVX512: CPUDispatch.cpuHasAVX512, avx512KernelsBuilt: CPUDispatch.avx512KernelsBuilt,
            avx512Masked: CPUDispatch.avx512Masked, dispatch: CPUDispatch.avx512State)
        return result
    }

    /// `--target-fps`: the governor for `scene`, which must be a capture drawn through levels of
    /// detail under a budget nobody pinned.
    static func governorRun(_ config: BenchmarkConfiguration, scene: Scene, setup: ViewingSetup, width: Int, height: Int) throws -> BenchmarkGovernorRun? {
        guard let fps = config.targetFps else { return nil }
        guard let budgeted = scene as? BudgetedScene, budgeted.wholeSplats > 0 else {
            throw ViewerError.badValue(what: "--target-fps", value: String(format: "%g", fps),
                                       reason: "governs the splat budget of a capture drawn through levels of detail; \(scene.name) has none (a capture over 300k splats, a streamed SOG's lod-meta.json, or any capture with --splat-budget auto has)")
        }
        guard !budgeted.budgetIsPinned else {
            throw ViewerError.badValue(what: "--target-fps", value: String(format: "%g", fps),
                                       reason: "the budget is pinned by --splat-budget N or --lod L; give one or the other")
        }
        var scalesFrame = true
        if case .camera = config.eye { scalesFrame = false }
        return BenchmarkGovernorRun(scene: budgeted, targetFps: fps, start: config.lod.budget ?? LODOptions.defaultBudget, width: width, height: height, setup: setup,
                                    threads: config.threads, scalesFrame: scalesFrame, measuresQuality: config.measuresQuality)
    }

    /// The effective settings of a run, as recorded in its result.
    static func settings(of config: BenchmarkConfiguration) throws -> BenchmarkSettings {
        let s = config.setup.screen
        var out = BenchmarkSettings(screenMM: [Double(s.value.width) * 1000, Double(s.value.height) * 1000].map { ($0 * 10).rounded() / 10 },
                                    screenOrigin: s.origin.rawValue, configFile: config.configPath,
                                    movementScale: config.setup.movementScale.value)
        if case .track = config.eye {
            let t = try SettingsResolver.resolve(config: config.config, configPath: config.configPath,
                                                 flags: config.trackOptions, geometry: config.setup.trackingGeometry)
            out.filter = t.filter.value.description
            out.predictMs = t.predictMs.value
            out.recenter = config.trackOptions.recenter
            out.axes = config.trackOptions.axes?.description
        }
        return out
    }

    /// Stage names a frame reports: named stages (splats) or the rasterizer's (meshes).
    static func stageList(_ s: FrameStats) -> [String] {
        if !s.stages.isEmpty { return s.stages.map(\.name) }
        return ["clear", "vertex", "setup+bin", "raster"]
    }

    static func fillStages(_ s: FrameStats, into out: inout [[Double]], at k: Int) {
        if !s.stages.isEmpty {
            for j in 0..<min(out.count, s.stages.count) { out[j][k] = s.stages[j].ms }
        } else if out.count >= 4 {
            out[0][k] = s.clearMs; out[1][k] = s.raster.vertexMs; out[2][k] = s.raster.setupMs; out[3][k] = s.raster.rasterMs
        }
    }
}
