import ArgumentParser
import Foundation
import Procedural
import RenderCore
import Settings
import Viewer

/// The physical screen size option shared by the window, render, bench and export commands.
struct ScreenOptions: ParsableArguments {
    @Option(name: .customLong("screen-mm"), help: "Physical screen size W,H in millimetres (default: the config file's, the display's, else 600,340).")
    var screenMM: String?

    /// The validated `--screen-mm`, if given.
    func flag() throws -> ScreenGeometry? { try screenMM.map { try OptionParsing.screenMillimetres($0) } }
}

/// `--config FILE`. The window reads the user's config file (this flag, else the XDG default);
/// `render`, `bench` and `export` are hermetic: they read a config file only when this flag names one.
struct ConfigOption: ParsableArguments {
    @Option(help: "Config file (window default: $XDG_CONFIG_HOME/splatframe/config.json; render/bench/export read one only when given).")
    var config: String?

    init() {}
    init(config: String?) { self.config = config }

    /// For interactive commands: the named file (which must exist, unless `creating`: commands
    /// that save calibration may start a new file) or the XDG default (which may not).
    func interactive(creating: Bool = false) throws -> (file: ConfigFile?, path: String) {
        if let config { return (creating ? try ConfigFile.load(path: config) : try ConfigFile.loadRequired(path: config), config) }
        let path = ConfigFile.defaultPath()
        return (try ConfigFile.load(path: path), path)
    }

    /// For hermetic commands: the named file, or nothing at all.
    func hermetic() throws -> (file: ConfigFile?, path: String?) {
        guard let config else { return (nil, nil) }
        return (try ConfigFile.loadRequired(path: config), config)
    }
}

/// How model files are placed and drawn.
struct ModelOptionGroup: ParsableArguments {
    @Option(help: "Model axis shown as up: y, -y, z, -z, x, -x (default: saved placement, else y for meshes, -y for splats).")
    var up: String?
    @Flag(help: "Show the model inside the parallax-cube room.") var room = false
    @Flag(help: "Cull back faces of meshes (closed, consistently wound meshes).") var cull = false
    @Flag(help: "Light back faces of meshes as if they were front faces.") var twoSided = false
    @Flag(inversion: .prefixedNo, help: "Splats: Mip-Splatting-style opacity compensation against aliasing (default: as the file says — an .spz may flag it — else off, the 3DGS reference image).")
    var antialias: Bool?
    @OptionGroup var lod: LODOptionGroup

    func options(defaultTwoSided: Bool = true) throws -> SceneLoader.ModelOptions {
        var o = SceneLoader.ModelOptions()
        if let up {
            guard let axis = UpAxis(parsing: up) else {
                throw ViewerError.badOption(name: "--up", value: up, reason: "expected one of y, -y, z, -z, x, -x")
            }
            o.up = axis
        }
        o.room = room
        o.cullBackFaces = cull
        o.twoSided = twoSided || defaultTwoSided
        o.antialias = antialias
        o.lod = try lod.options()
        return o
    }
}

/// Level of detail for streamed SOGs (`lod-meta.json`): `open`, `render` and `bench`.
struct LODOptionGroup: ParsableArguments {
    @Option(name: .customLong("splat-budget"),
            help: "Streamed SOG (lod-meta.json): most splats a frame draws, e.g. 150k, or none (default \(LODOptions.defaultBudget)).")
    var splatBudget: String?
    @Option(name: .customLong("lod"), help: "Streamed SOG: draw level N everywhere (0 = finest), ignoring the budget.")
    var lod: Int?

    func options() throws -> LODOptions {
        var o = LODOptions()
        if let splatBudget { o.budget = try OptionParsing.splatBudget(splatBudget) }
        if let lod {
            guard lod >= 0, lod < 64 else { throw ViewerError.badOption(name: "--lod", value: "\(lod)", reason: "must be a level 0…63 (0 = finest)") }
            o.forcedLevel = lod
        }
        return o
    }
}

/// Prints "loading NAME: 42%" on stderr while a long file loads (terminals only).
enum LoadProgress {
    static func reporter(for path: String) -> ((Int, Int) -> Void)? {
        guard isatty(2) != 0 else { return nil }
        var last = -1
        return { done, total in
            guard total > 0 else { return }
            let pct = Int(Double(done) / Double(total) * 100)
            if pct != last {
                last = pct
                FileHandle.standardError.write(Data("\rloading \(path): \(pct)%\(pct >= 100 ? "\n" : "")".utf8))
            }
        }
    }
}

/// Pictures, videos and shape of the parallax-cube room.
struct RoomOptions: ParsableArguments {
    @Option(help: "Picture (PNG/JPEG) or video (MP4, MKV, AVI, WebM…: loops in step with the frame clock) for the back wall.")
    var back: String?
    @Option(help: "Picture or video for the left wall.") var left: String?
    @Option(help: "Picture or video for the right wall.") var right: String?
    @Option(help: "Picture or video for the ceiling.") var top: String?
    @Option(help: "Picture or video for the floor.") var bottom: String?
    @Option(help: "Room depth behind the screen in metres (default: the screen width).") var depth: Double?
    @Flag(help: "Hide the floating targets.") var noTargets = false

    func description() throws -> SceneDescription {
        var walls: [CubeRoom.Wall: String] = [:]
        for (wall, path) in [(CubeRoom.Wall.back, back), (.left, left), (.right, right), (.top, top), (.bottom, bottom)] {
            if let path { walls[wall] = path }
        }
        let d = try depth.map { try OptionParsing.positive($0, option: "--depth") }
        return SceneDescription(kind: .cube, depth: d, walls: walls, targets: !noTargets)
    }

    /// True when any room option was given.
    var isSet: Bool { back != nil || left != nil || right != nil || top != nil || bottom != nil || depth != nil || noTargets }

    /// For commands whose SCENE may be `cube` (bench, export): the room it names, nil when no
    /// room option was given; an error when room options come with another scene.
    func cubeDescription(scene: String) throws -> SceneDescription? {
        guard isSet else { return nil }
        guard scene == "cube" else {
            throw ViewerError.badOption(name: "--back/--left/--right/--top/--bottom/--depth/--no-targets", value: scene,
                                        reason: "room options apply to the cube scene only (a scene JSON has its own walls)")
        }
        return try description()
    }
}

/// `--stereo MODE` and `--ipd MM` for the window and `render`.
struct StereoOptions: ParsableArguments {
    @Option(help: "Stereo: anaglyph (red/cyan, Dubois), anaglyph:plain, sbs (full side by side), hsbs (half side by side).")
    var stereo: String?
    @Option(help: "Inter-pupillary distance in millimetres for stereo, where the tracker does not measure both eyes.")
    var ipd: Double = 63

    /// The validated mode (nil: mono) and IPD in metres.
    func resolved() throws -> (mode: StereoMode, ipd: Double)? {
        guard ipd > 40, ipd < 90 else { throw ViewerError.badOption(name: "--ipd", value: "\(ipd)", reason: "must be 40…90 mm") }
        return try stereo.map { (try StereoMode(parsing: $0), ipd / 1000) }
    }
}

/// Window options.
struct WindowOptions: ParsableArguments {
    @Option(help: "Window size WxH in pixels.") var size: String = "1280x720"
    @Flag(help: "Start fullscreen.") var fullscreen = false
    @Option(help: "Render threads (default: one per core).") var threads: Int?
    @Option(name: .customLong("stats-every"), help: "Print frame time and resident memory on stderr every S seconds (soak runs).")
    var statsEvery: Double?
    @OptionGroup var stereoOptions: StereoOptions
    /// Tests: `FRAME:PATH` pushes an SDL drop event for PATH at that frame (the real drop path).
    @Option(name: .customLong("test-drop"), help: .hidden) var testDrop: String?

    func validatedThreads() throws -> Int {
        guard let t = threads else { return CoreCount.available }
        guard t >= 1, t <= 256 else { throw ViewerError.badOption(name: "--threads", value: "\(t)", reason: "must be 1…256") }
        return t
    }
}
