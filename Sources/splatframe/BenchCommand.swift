// BenchCommand — `splatframe bench`: headless frame-time measurement, sweeps and comparisons.
import ArgumentParser
import Foundation
import ImageIO
import RenderCore
import SplatRender
import Viewer
import Bench

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

    @OptionGroup var sceneOptions: SceneOptionGroup
    @OptionGroup var cameraOption: CameraOption
    @OptionGroup var sizeOption: SizeOption
    @Option(parsing: .unconditional, help: "Measured frames per repeat, 1…1000000.", transform: Checked.integer(in: 1...1_000_000, "frames")) var frames: Int = 100
    @Option(parsing: .unconditional, help: "Frames rendered first and not measured, 0…1000000.", transform: Checked.integer(in: 0...1_000_000, "frames")) var warmup: Int = 10
    @OptionGroup var threadsOption: ThreadsOption
    @Option(name: .customLong("repeat"), parsing: .unconditional, help: "Run the whole measurement R times (1…1000) and report the spread.",
            transform: Checked.integer(in: 1...1000, "repeats"))
    var repeats: Int = 1
    @Option(help: "Write the machine-readable result (JSON) here.") var json: String?
    @Option(help: "A previous --json result: print the ratio against it, pair by pair.") var compare: String?
    @Option(name: .customLong("blend-kernel"),
            help: "Splat blend kernel, lanes8 for AVX2 or blocks for AVX-512; the same image (default: the one built for this CPU).")
    var blendKernel: BlendKernel?
    @Option(help: "Sweep one parameter: splats=10k,100k,1M (replaces SCENE by generate:N) | size=640x360,1280x720 | threads=1,2 | kernel=lanes8,blocks | target-fps=15,30,60 (the governor: picture against frame time).",
            transform: SweepArgument.parse)
    var sweep: BenchmarkSweep?
    @Option(name: .customLong("target-fps"), parsing: .unconditional,
            help: "Run the frame-time governor: choose the capture's splat budget (and render scale) each frame to hold N fps (1…1000), and report what it chose and the picture against the whole capture.",
            transform: Checked.number(in: 1...1000, "fps"))
    var targetFps: Double?
    @Option(help: "With --sweep, also write the CSV here.") var csv: String?
    @Option(help: "Save the last measured frame as PNG (with --sweep: of the last point).") var out: String?
    @OptionGroup var twoSidedOption: TwoSidedOption
    @Option(name: .customLong("path-rate"), parsing: .unconditional, help: "Eye path / track sampling rate in frames per second, more than 0 and at most 10000.",
            transform: Checked.number(above: 0, upTo: 10_000, "Hz"))
    var pathRate: Double = 60
    @OptionGroup var screenOptions: ScreenOptions
    @OptionGroup var configOption: ConfigOption
    @OptionGroup var replay: ReplayOptions

    func validate() throws {
        guard replay.track == nil || cameraOption.camera == nil else {
            throw OptionError("--track/--camera", "", "give at most one of --track LOG and --camera CAM.json")
        }
        if let csv, sweep == nil { throw OptionError("--csv", csv, "needs --sweep") }
        if cameraOption.camera != nil, let sweep, sweep.parameter == "size" {
            throw OptionError("--sweep", "size=" + sweep.values.joined(separator: ","), "a size sweep needs the off-axis eye, not --camera (its size is fixed)")
        }
    }

    func run() throws {
        try measure()
    }

    func measure() throws {
        let scene = sceneOptions.scene
        let config = try configOption.hermetic()
        let replayOptions = replay.resolved
        let setup = ViewingSetup.resolve(screenFlag: screenOptions.flag(), movementScaleFlag: replayOptions.movementScale, config: config.file)
        let previous = try compare.map { try BenchmarkDocument.load($0) }

        var base = BenchmarkConfiguration(scene: scene.description, threads: threadsOption.count, frames: frames, warmup: warmup)
        base.repeats = repeats
        if let blendKernel { base.blendKernel = blendKernel }
        base.setup = setup
        base.config = config.file
        base.configPath = config.path
        base.pathRate = pathRate
        base.twoSided = twoSidedOption.twoSided
        base.trackOptions = replayOptions
        base.room = sceneOptions.cubeRoom
        base.lod = sceneOptions.lod.options
        base.targetFps = targetFps
        if let camera = cameraOption.camera {
            let cam = try CameraFile.load(camera)
            if let size = sizeOption.size, size.width != cam.width || size.height != cam.height {
                throw OptionError("--size", "\(size)", "differs from the camera file's \(cam.width)x\(cam.height)")
            }
            base.eye = .camera(cam)
            base.width = cam.width; base.height = cam.height
        } else {
            base.width = sizeOption.value.width; base.height = sizeOption.value.height
            if let track = replay.track {
                base.eye = .track(path: track)
            } else {
                base.eye = .figureEight
            }
        }
        let sweepSpec = sweep

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
            throw OptionError(option, path, "cannot write (\((error as NSError).localizedDescription))")
        }
    }

    private func progress(_ s: String) {
        FileHandle.standardError.write(Data("\(s)\n".utf8))
    }
}

/// `--sweep P=V,…`: `BenchmarkSweep`'s rule, its message after the option ArgumentParser names.
enum SweepArgument {
    static func parse(_ text: String) throws -> BenchmarkSweep {
        do { return try BenchmarkSweep(parsing: text) } catch let ViewerError.badValue(_, value, reason) {
            throw ArgumentRule(value == text ? reason : "'\(value)': \(reason)")
        }
    }
}
