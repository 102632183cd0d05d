// BenchCommand — `splatframe bench`: headless frame-time measurement, sweeps and comparisons.
import ArgumentParser
import Foundation
import ImageIO
import RenderCore
import Viewer

/// `splatframe bench SCENE [--track LOG | --camera CAM.json] [--size WxH] [--threads T]
/// [--frames N] [--warmup M] [--repeat R] [--json OUT] [--compare OLD.json] [--sweep P=V,…]`.
struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench", abstract: "Measure headless frame times of a scene (use a release build).",
        discussion: """
        The eye follows --track LOG (replayed by frame: frame i at i/--path-rate s), stays fixed with \
        --camera CAM.json (the scene in its own coordinates, as glref and `render --camera`), or else \
        flies a slow figure-eight 0.6 m in front of the screen. Frame time = Scene.render wall clock. \
        Hermetic: no config file is read unless --config names one; the JSON records the settings used.
        """)

    @Argument(help: "cube, sphere:N, generate:N (N-splat procedural scene), a scene JSON, mesh or splat file.")
    var scene: String = "cube"
    @Option(help: "Head-track log to replay (deterministic, sampled by frame).") var track: String?
    @Option(help: "Camera JSON (the render command's contract): a fixed eye, scene in its own coordinates.") var camera: String?
    @Option(help: "Image size WxH (default 1280x720, or the camera's).") var size: String?
    @Option(help: "Measured frames per repeat.") var frames: Int = 100
    @Option(help: "Frames rendered first and not measured.") var warmup: Int = 10
    @Option(help: "Render threads (default: one per core).") var threads: Int?
    @Option(name: .customLong("repeat"), help: "Run the whole measurement R times and report the spread.") var repeats: Int = 1
    @Option(help: "Write the machine-readable result (JSON) here.") var json: String?
    @Option(help: "A previous --json result: print the ratio against it, pair by pair.") var compare: String?
    @Option(name: .customLong("blend-kernel"),
            help: "Splat blend kernel: lanes8 (AVX2) or blocks (AVX-512); same image (default: the one built for this CPU).")
    var blendKernel: String?
    @Option(help: "Sweep one parameter: splats=10k,100k,1M (replaces SCENE by generate:N) | size=640x360,1280x720 | threads=1,2 | kernel=lanes8,blocks.") var sweep: String?
    @Option(help: "With --sweep, also write the CSV here.") var csv: String?
    @Option(help: "Save the last measured frame as PNG (with --sweep: of the last point).") var out: String?
    @Flag(name: .customLong("two-sided"), help: "Two-sided lighting for meshes (glref --two-sided).") var twoSided = false
    @Option(name: .customLong("path-rate"), help: "Eye path / track sampling rate in frames per second.") var pathRate: Double = 60
    @OptionGroup var screenOptions: ScreenOptions
    @OptionGroup var configOption: ConfigOption
    @OptionGroup var replay: ReplayOptions
    @OptionGroup var room: RoomOptions
    @OptionGroup var lod: LODOptionGroup

    func run() throws {
        try measure()
    }

    func measure() throws {
        guard frames >= 1, frames <= 1_000_000 else { throw ViewerError.badOption(name: "--frames", value: "\(frames)", reason: "must be 1…1000000") }
        guard warmup >= 0, warmup <= 1_000_000 else { throw ViewerError.badOption(name: "--warmup", value: "\(warmup)", reason: "must be 0…1000000") }
        guard repeats >= 1, repeats <= 1000 else { throw ViewerError.badOption(name: "--repeat", value: "\(repeats)", reason: "must be 1…1000") }
        guard pathRate.isFinite, pathRate > 0, pathRate <= 10_000 else {
            throw ViewerError.badOption(name: "--path-rate", value: "\(pathRate)", reason: "must be a rate in Hz, 0…10000")
        }
        guard track == nil || camera == nil else {
            throw ViewerError.badOption(name: "--track/--camera", value: "", reason: "give at most one of --track LOG and --camera CAM.json")
        }
        let threads = try WindowOptions(threads: self.threads).validatedThreads()
        let config = try configOption.hermetic()
        let setup = ViewingSetup.resolve(screenFlag: try screenOptions.flag(), movementScaleFlag: try replay.movementScaleFlag(),
                                         config: config.file)
        let sweepSpec = try sweep.map { try BenchmarkSweep(parsing: $0) }
        if csv != nil && sweepSpec == nil {
            throw ViewerError.badOption(name: "--csv", value: csv!, reason: "needs --sweep")
        }
        let previous = try compare.map { try BenchmarkDocument.load($0) }

        var base = BenchmarkConfiguration(scene: scene, threads: threads, frames: frames, warmup: warmup)
        base.repeats = repeats
        if let blendKernel { base.blendKernel = try OptionParsing.blendKernel(blendKernel, option: "--blend-kernel") }
        base.setup = setup
        base.config = config.file
        base.configPath = config.path
        base.pathRate = pathRate
        base.twoSided = twoSided
        base.trackOptions = try replay.resolved()
        base.room = try room.cubeDescription(scene: scene)
        base.lod = try lod.options()
        if let camera {
            let cam = try CameraFile.load(camera)
            if let size {
                let s = try OptionParsing.size(size)
                guard s.width == cam.width, s.height == cam.height else {
                    throw ViewerError.badOption(name: "--size", value: size, reason: "differs from the camera file's \(cam.width)x\(cam.height)")
                }
            }
            if sweepSpec?.parameter == "size" {
                throw ViewerError.badOption(name: "--sweep", value: sweep!, reason: "a size sweep needs the off-axis eye, not --camera (its size is fixed)")
            }
            base.eye = .camera(cam)
            base.width = cam.width; base.height = cam.height
        } else {
            let s = try OptionParsing.size(size ?? "1280x720")
            base.width = s.width; base.height = s.height
            if let track {
                guard FileManager.default.isReadableFile(atPath: track) else {
                    throw ViewerError.badOption(name: "--track", value: track, reason: "no such file")
                }
                base.eye = .track(path: track)
            } else {
                base.eye = .figureEight
            }
        }

        let configs = try sweepSpec.map { sp in try sp.values.map { try sp.apply($0, to: base) } } ?? [base]
        var results: [BenchmarkResult] = []
        // One scene per distinct name (a size or threads sweep reuses the loaded scene).
        var sceneCache: (name: String, scene: Scene)?
        for (i, config) in configs.enumerated() {
            if configs.count > 1 { progress("[\(i + 1)/\(configs.count)] \(config.label): loading \(config.scene)") }
            let sceneObject: Scene
            if let c = sceneCache, c.name == config.scene { sceneObject = c.scene } else {
                sceneCache = nil
                let own: Bool = { if case .camera = config.eye { return true }; return false }()
                sceneObject = try BenchmarkSceneFactory.make(config.scene, screen: config.setup.screen.value, ownCoordinates: own, twoSided: config.twoSided,
                                                             room: config.room, lod: config.lod)
                sceneCache = (config.scene, sceneObject)
            }
            let r = try BenchmarkRunner.run(config, scene: sceneObject,
                                            progress: configs.count > 1 || repeats > 1 ? { self.progress("  \(config.label): \($0)") } : nil,
                                            lastFrame: out.map { path in { fb in try ImageFile.savePNG(fb.image(), to: path) } })
            results.append(r)
            if sweepSpec == nil { print(BenchmarkReport.table(r), terminator: "") }
        }
        let doc = BenchmarkDocument(sweep: sweepSpec?.parameter, results: results)
        if sweepSpec != nil {
            print(BenchmarkReport.sweepTable(doc))
            print(BenchmarkReport.sweepCSV(doc), terminator: "")
            if let csv { try write(Data(BenchmarkReport.sweepCSV(doc).utf8), to: csv, option: "--csv") }
        }
        if let previous, let compare {
            print(BenchmarkReport.compare(new: doc, old: previous, oldName: compare), terminator: "")
        }
        if let json { try write(try doc.jsonData(), to: json, option: "--json") }
    }

    private func write(_ data: Data, to path: String, option: String) throws {
        do { try data.write(to: URL(fileURLWithPath: path)) } catch {
            throw ViewerError.badOption(name: option, value: path, reason: "cannot write (\((error as NSError).localizedDescription))")
        }
    }

    private func progress(_ s: String) {
        FileHandle.standardError.write(Data("\(s)\n".utf8))
    }
}
