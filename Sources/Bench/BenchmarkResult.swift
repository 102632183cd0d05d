// BenchmarkResult — the machine-readable record of `splatframe bench` (schema "splatframe-bench" v1).
import Viewer
import Foundation

/// One bench file: one result for a plain run, one per point for a sweep. Written with
/// sorted keys; fields are only ever added (readers ignore unknown keys), never renamed.
public struct BenchmarkDocument: Codable, Sendable, Equatable {
    /// Always `"splatframe-bench"`.
    public var schema: String
    /// Schema version (1).
    public var version: Int
    /// The swept parameter (`splats`, `size`, `threads`) or nil for a plain run.
    public var sweep: String?
    /// The results, in run order; `label` pairs them up in `--compare`.
    public var results: [BenchmarkResult]

    /// The schema name written to every file.
    public static let schemaName = "splatframe-bench"
    /// The current schema version.
    public static let currentVersion = 1

    /// A document of `results`.
    public init(sweep: String? = nil, results: [BenchmarkResult]) {
        schema = Self.schemaName; version = Self.currentVersion; self.sweep = sweep; self.results = results
    }

    /// Pretty JSON with sorted keys.
    public func jsonData() throws -> Data {
        let e = JSONEncoder()
        e.outputFormatting = [.prettyPrinted, .sortedKeys]
        return try e.encode(self)
    }

    /// Reads a bench file; `path` names it in errors.
    public static func load(_ path: String) throws -> BenchmarkDocument {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ViewerError.badJSON(path: path, reason: "cannot read bench result")
        }
        let doc: BenchmarkDocument
        do { doc = try JSONDecoder().decode(BenchmarkDocument.self, from: data) } catch {
            throw ViewerError.badJSON(path: path, reason: "not a splatframe bench result (\(Self.describe(error)))")
        }
        guard doc.schema == schemaName else {
            throw ViewerError.badJSON(path: path, reason: "schema is \"\(doc.schema)\", expected \"\(schemaName)\"")
        }
        guard doc.version <= currentVersion else {
            throw ViewerError.badJSON(path: path, reason: "schema version \(doc.version) is newer than this build's \(currentVersion)")
        }
        return doc
    }

    static func describe(_ error: Error) -> String {
        switch error {
        case let DecodingError.keyNotFound(key, ctx):
            return "missing \"\(key.stringValue)\" at \(ctx.codingPath.map(\.stringValue).joined(separator: "."))"
        case let DecodingError.typeMismatch(_, ctx), let DecodingError.valueNotFound(_, ctx):
            return "wrong type at \(ctx.codingPath.map(\.stringValue).joined(separator: "."))"
        case let DecodingError.dataCorrupted(ctx):
            return ctx.debugDescription.split(whereSeparator: \.isNewline).first.map(String.init) ?? "corrupted"
        default:
            return "\(error)"
        }
    }
}

/// One measured configuration. Times are milliseconds of wall clock per frame.
public struct BenchmarkResult: Codable, Sendable, Equatable {
    /// Pairs results across files in `--compare` (`default`, or e.g. `splats=100000`).
    public var label: String
    /// The scene as named on the command line.
    public var scene: String
    /// The scene's own name.
    public var sceneName: String
    /// What `primitives` counts: `splats` or `triangles`.
    public var primitiveKind: String
    /// Splats or triangles drawn per frame.
    public var primitives: Int
    /// Image width in pixels.
    public var width: Int
    /// Image height in pixels.
    public var height: Int
    /// Render threads.
    public var threads: Int
    /// Frames rendered before measuring, per repeat.
    public var warmupFrames: Int
    /// Measured frames per repeat.
    public var measuredFrames: Int
    /// How many times the whole measurement ran (`--repeat`).
    public var repeats: Int
    /// Eye motion: `camera` (fixed, from a camera JSON), `figure-eight` (built-in path) or `track` (head-track log).
    public var eye: String
    /// The head-track log with `eye == "track"`.
    public var trackFile: String?
    /// Frame rate at which the eye path / log is sampled (frame i at time i / fps), Hz.
    public var pathRate: Double
    /// `release` or `debug`.
    public var build: String
    /// CPU model from /proc/cpuinfo.
    public var cpu: String
    /// Logical cores available to the process.
    public var cores: Int
    /// When the run finished (ISO 8601, UTC).
    public var date: String
    /// Every measured frame time, repeats concatenated in order.
    public var frameMs: [Double]
    /// Statistics over all measured frames.
    public var frame: FrameStatistics
    /// Frames per second from `frame.median`.
    public var fps: Double
    /// Per-repeat statistics (one entry without `--repeat`).
    public var runs: [FrameStatistics]
    /// Spread of the per-repeat medians: (max − min) / median of medians, in percent.
    public var spreadPercent: Double
    /// Per-stage times over all measured frames, in pipeline order (splats: preprocess,
    /// sort, bin, blend; meshes: clear, vertex, setup+bin, raster; with video walls also advance).
    public var stages: [BenchmarkStage]
    /// Peak resident memory of the process (bytes, `getrusage` ru_maxrss).
    public var peakResidentBytes: Int
    /// Heap allocations during the measured frames.
    public var allocations: BenchmarkAllocations
    /// Pose publish → frame complete, with `eye == "track"` (see `latencyDefinition`).
    public var latency: FrameStatistics?
    /// What `latency` measures.
    public var latencyDefinition: String?
    /// The effective viewing and tracking settings the run used (absent in files from older builds).
    public var settings: BenchmarkSettings?
    /// Splat scenes: how much work a frame held (medians over the measured frames).
    public var splatWork: BenchmarkSplatWork?
    /// The CPU as cpuid describes it and the kernels chosen for it (absent in files from older builds).
    public var machine: BenchmarkMachine?
    /// `--target-fps`: what the frame-time governor did (absent without it).
    public var governor: BenchmarkGovernorReport?

    public init(label: String, scene: String, sceneName: String, primitiveKind: String, primitives: Int,
                width: Int, height: Int, threads: Int, warmupFrames: Int, measuredFrames: Int, repeats: Int,
                eye: String, trackFile: String?, pathRate: Double, build: String, cpu: String, cores: Int,
                date: String, frameMs: [Double], runs: [FrameStatistics], stages: [BenchmarkStage],
                peakResidentBytes: Int, allocations: BenchmarkAllocations, latency: FrameStatistics?,
                latencyDefinition: String?) {
        self.label = label; self.scene = scene; self.sceneName = sceneName; self.primitiveKind = primitiveKind
        self.primitives = primitives; self.width = width; self.height = height; self.threads = threads
        self.warmupFrames = warmupFrames; self.measuredFrames = measuredFrames; self.repeats = repeats
        self.eye = eye; self.trackFile = trackFile; self.pathRate = pathRate; self.build = build
        self.cpu = cpu; self.cores = cores; self.date = date; self.frameMs = frameMs
        let f = FrameStatistics(frameMs)
        self.frame = f; self.fps = f.fps; self.runs = runs
        let medians = runs.map(\.median)
        let mm = FrameStatistics(medians).median
        self.spreadPercent = mm > 0 ? ((medians.max() ?? 0) - (medians.min() ?? 0)) / mm * 100 : 0
        self.stages = stages; self.peakResidentBytes = peakResidentBytes; self.allocations = allocations
        self.latency = latency; self.latencyDefinition = latencyDefinition
    }
}

/// The settings a bench run used, so that two results can be told apart by more than their
/// numbers. Bench and export read no user config unless `--config FILE` names one.
public struct BenchmarkSettings: Codable, Sendable, Equatable {
    /// Physical screen width and height (mm) and where they came from (`flag`, `config file`, `default`).
    public var screenMM: [Double]
    public var screenOrigin: String
    /// The config file read (`--config`), or nil: none (defaults and flags only).
    public var configFile: String?
    /// Movement scale about the neutral eye.
    public var movementScale: Double
    /// With `eye == "track"`: the effective filter, prediction (ms), and replay transforms.
    public var filter: String?
    public var predictMs: Double?
    public var recenter: Bool?
    public var axes: String?

    public init(screenMM: [Double], screenOrigin: String, configFile: String?, movementScale: Double,
                filter: String? = nil, predictMs: Double? = nil, recenter: Bool? = nil, axes: String? = nil) {
        self.screenMM = screenMM; self.screenOrigin = screenOrigin; self.configFile = configFile
        self.movementScale = movementScale; self.filter = filter; self.predictMs = predictMs
        self.recenter = recenter; self.axes = axes
    }
}

/// How much work the splat renderer did per frame (medians over the measured frames).
public struct BenchmarkSplatWork: Codable, Sendable, Equatable {
    /// Splats that survived culling.
    public var visibleSplats: Int
    /// (16×16 tile, splat) pairs blended.
    public var tileSplatPairs: Int
    /// The blend kernel, `lanes8` or `blocks` (absent in files from older builds).
    public var blendKernel: String?
    /// The instruction set it ran with, `avx2` or `avx512` (absent in files from older builds).
    public var blendInstructionSet: String?

    public init(visibleSplats: Int, tileSplatPairs: Int, blendKernel: String? = nil, blendInstructionSet: String? = nil) {
        self.visibleSplats = visibleSplats; self.tileSplatPairs = tileSplatPairs; self.blendKernel = blendKernel
        self.blendInstructionSet = blendInstructionSet
    }
}

/// The CPU a run measured (beside the result's `cpu`, its model name) and what the build's
/// run-time dispatch chose for it.
public struct BenchmarkMachine: Codable, Sendable, Equatable {
    /// Display family and model from cpuid (AMD Zen 3: family 25, models 0–15 and 32–47; Zen 4: 25, 16–31 and 96–127).
    public var family: Int
    public var model: Int
    /// Whether the CPU (and OS) can run AVX-512.
    public var cpuHasAVX512: Bool
    /// Whether the build carries AVX-512 kernels, and whether the environment masked them off.
    public var avx512KernelsBuilt: Bool
    public var avx512Masked: Bool
    /// The dispatch's verdict in words ("AVX-512 kernels in use", "no AVX-512 on this CPU", …).
    public var dispatch: String

    public init(family: Int, model: Int, cpuHasAVX512: Bool, avx512KernelsBuilt: Bool,
                avx512Masked: Bool, dispatch: String) {
        self.family = family; self.model = model; self.cpuHasAVX512 = cpuHasAVX512
        self.avx512KernelsBuilt = avx512KernelsBuilt; self.avx512Masked = avx512Masked; self.dispatch = dispatch
    }
}

/// One pipeline stage's cost per frame (milliseconds).
public struct BenchmarkStage: Codable, Sendable, Equatable {
    /// Stage name (`preprocess`, `sort`, `bin`, `blend`, `clear`, `vertex`, `setup+bin`, `raster`, `advance`: video frames uploaded before the frame).
    public var name: String
    /// Mean ms per frame.
    public var mean: Double
    /// Median ms per frame.
    public var median: Double
    /// 90th percentile ms per frame.
    public var p90: Double

    /// Summarises `samples` (ms per frame).
    public init(name: String, samples: [Double]) {
        let s = FrameStatistics(samples)
        self.name = name; mean = s.mean; median = s.median; p90 = s.p90
    }
}

/// Heap allocations counted during the measured frames (all threads).
public struct BenchmarkAllocations: Codable, Sendable, Equatable {
    /// How they were counted: `malloc-interposer` (the CAllocationCounter shim) or
    /// `unavailable` (then the numbers are 0 and mean nothing).
    public var method: String
    /// Allocating calls per measured frame (mean).
    public var callsPerFrame: Double
    /// Bytes requested per measured frame (mean).
    public var bytesPerFrame: Double
    /// Measured frames in which at least one allocation happened.
    public var framesWithAllocations: Int

    public init(method: String, callsPerFrame: Double, bytesPerFrame: Double, framesWithAllocations: Int) {
        self.method = method; self.callsPerFrame = callsPerFrame; self.bytesPerFrame = bytesPerFrame
        self.framesWithAllocations = framesWithAllocations
    }
}
