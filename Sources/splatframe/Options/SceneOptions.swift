// SceneOptions — how a scene is chosen and drawn: the headless commands' one scene group (SCENE,
// the room's walls, level of detail), model placement, downloads.
import ArgumentParser
import Downloads
import Foundation
import Procedural
import RenderCore
import Settings
import SplatLOD
import Viewer

/// Pictures, videos and shape of the parallax-cube room: they apply wherever the room is the
/// scene (`cube`, a room scene JSON, whose walls they replace one by one).
struct RoomOptions: ParsableArguments {
    @Option(help: "Picture (PNG/JPEG) or video (MP4, MKV, AVI, WebM…: loops in step with the frame clock) for the back wall.")
    var back: String?
    @Option(help: "Picture or video for the left wall.") var left: String?
    @Option(help: "Picture or video for the right wall.") var right: String?
    @Option(help: "Picture or video for the ceiling.") var top: String?
    @Option(help: "Picture or video for the floor.") var bottom: String?
    @Option(parsing: .unconditional, help: "Room depth behind the screen in metres, more than 0 and at most 100 (default: the screen width).",
            transform: Checked.number(above: 0, upTo: 100, "m"))
    var depth: Double?
    @Flag(help: "Hide the floating targets.") var noTargets = false

    /// True when any room option was given.
    var isSet: Bool { back != nil || left != nil || right != nil || top != nil || bottom != nil || depth != nil || noTargets }

    /// The room these options describe (walls not named: the generated grids).
    var description: SceneDescription {
        var walls: [CubeRoom.Wall: String] = [:]
        for (wall, path) in [(CubeRoom.Wall.back, back), (.left, left), (.right, right), (.top, top), (.bottom, bottom)] {
            if let path { walls[wall] = path }
        }
        return SceneDescription(kind: .cube, depth: depth.map(Float.init), walls: walls, targets: !noTargets)
    }

    /// The room options for `source`: nil when none was given; an error when some were given
    /// for a scene that is not the room.
    func room(for source: SceneSource) throws -> SceneDescription? {
        guard isSet else { return nil }
        guard source.isRoom else {
            throw OptionError("--back/--left/--right/--top/--bottom/--depth/--no-targets", "\(source)",
                              "room options apply where the room is the scene: cube or a room scene JSON")
        }
        return description
    }
}

/// The scene a headless command draws (`render`, `bench`, `export`): SCENE, the room's walls and
/// the level of detail, one group so that each takes the same scenes under the same options.
struct SceneOptionGroup: ParsableArguments {
    @Argument(help: "cube (the default), sphere:N, generate:N (an N-splat procedural scene), a scene JSON, a mesh or splat file.",
              transform: SceneArgument.parse)
    var scene: SceneSource = .room
    @OptionGroup var room: RoomOptions
    @OptionGroup var lod: LODOptionGroup

    func validate() throws { _ = try room.room(for: scene) }

    /// The room the options describe, for the room scenes (nil: none given); checked by `validate()`.
    var cubeRoom: SceneDescription? { (try? room.room(for: scene)) ?? nil }
}

/// `--two-sided`, for the window, `render` and `bench`.
struct TwoSidedOption: ParsableArguments {
    @Flag(name: .customLong("two-sided"),
          help: "Light back faces as if they were front faces (glref --two-sided). Mesh files are lit so anyway except in bench --camera; in bench it covers the built-in room and sphere too.")
    var twoSided = false
}

/// How model files are placed and drawn (the window commands and `render`; the level of detail is
/// `LODOptionGroup`, beside it).
struct ModelOptionGroup: ParsableArguments {
    @Option(help: "Model axis shown as up (default: saved placement, else y for meshes, -y for splats).")
    var up: UpAxis?
    @Flag(help: "Show the model inside the parallax-cube room.") var room = false
    @Flag(help: "Cull back faces of meshes (closed, consistently wound meshes).") var cull = false
    @OptionGroup var twoSided: TwoSidedOption
    @Flag(inversion: .prefixedNo, help: "Splats: Mip-Splatting-style opacity compensation against aliasing (default: as the file says — an .spz may flag it — else off, the 3DGS reference image).")
    var antialias: Bool?
    @OptionGroup var download: DownloadOptionGroup

    /// The options, drawn under `lod`; `window`: level-of-detail trees are cached in
    /// `$XDG_CACHE_HOME/splatframe/lod` unless `--lod-cache` names a folder (render, bench and
    /// export touch no cache by default).
    /// `config`: the window's config file (its `downloadCacheLimitMB`).
    func options(lod: LODOptionGroup, defaultTwoSided: Bool = true, window: Bool = false, config: ConfigFile? = nil) -> SceneLoader.ModelOptions {
        var o = SceneLoader.ModelOptions()
        o.up = up
        o.room = room
        o.cullBackFaces = cull
        o.twoSided = twoSided.twoSided || defaultTwoSided
        o.antialias = antialias
        o.lod = lod.options(defaultCache: window ? LODCache.defaultFolder() : nil)
        o.download = download.options(defaultCache: window ? DownloadOptions.defaultCacheFolder() : nil, config: config)
        return o
    }
}

/// Scenes named by an `https://` URL: where downloads are kept, how large they may be, plain http.
struct DownloadOptionGroup: ParsableArguments {
    @Option(name: .customLong("max-download-mb"), parsing: .unconditional, help: "Largest file a URL may download, in megabytes (default 2048).",
            transform: Checked.integer(in: 1...(1 << 24), "MB"))
    var maxDownloadMB: Int?
    @Flag(name: .customLong("allow-http"), help: "Allow plain http:// URLs and redirects (default: https only).")
    var allowHTTP = false
    @Option(name: .customLong("download-cache"),
            help: ArgumentHelp("Folder that keeps downloaded scenes (default: the window and info use $XDG_CACHE_HOME/splatframe/downloads; render, bench and export download to a temporary folder they remove).", valueName: "dir"))
    var downloadCache: String?
    @Option(name: .customLong("download-cache-limit-mb"), parsing: .unconditional,
            help: "Most megabytes the download cache holds; least recently used downloads go first (default: config downloadCacheLimitMB, else 10240).",
            transform: Checked.integer(in: 1...(1 << 24), "MB"))
    var downloadCacheLimitMB: Int?

    /// The options, with `defaultCache` used when no `--download-cache` is named; the cache's
    /// bound is the flag's, else `config`'s, else `DownloadCache.defaultLimitBytes`.
    func options(defaultCache: String?, config: ConfigFile? = nil) -> DownloadOptions {
        var o = DownloadOptions(cacheFolder: downloadCache ?? defaultCache)
        if let mb = downloadCacheLimitMB ?? config?.downloadCacheLimitMB.map({ Int($0) }) { o.cacheLimitBytes = Int64(mb) << 20 }
        if let mb = maxDownloadMB { o.maxBytes = Int64(mb) << 20 }
        o.allowHTTP = allowHTTP
        return o
    }
}

/// Level of detail: streamed SOGs (`lod-meta.json`), and plain captures given levels of detail
/// (`open`, `render`, `bench`, `export` and the library).
struct LODOptionGroup: ParsableArguments {
    @Option(name: .customLong("splat-budget"),
            help: ArgumentHelp("Most splats a frame draws, e.g. 150k; auto (default): the window chooses it each frame to hold the target frame rate (--target-fps), headless commands draw \(LODOptions.defaultBudget); none: whole.",
                               discussion: "Streamed SOGs are drawn under it. A plain capture (PLY, .splat, .spz, SOG) gets levels of detail built for it when a budget is named, or by default when it holds more than \(LODOptions.wholeCaptureLimit / 1000)k splats; none always draws it whole."))
    var splatBudget: SplatBudget?
    @Option(name: .customLong("lod"), parsing: .unconditional, help: "Streamed SOG or a capture with levels of detail: draw level N everywhere (0 = finest, up to 63), ignoring the budget.",
            transform: Checked.integer(in: 0...63, "levels"))
    var lod: Int?
    @Option(name: .customLong("lod-cache"),
            help: ArgumentHelp("Folder that keeps plain captures' levels of detail (default: the window uses $XDG_CACHE_HOME/splatframe/lod; render, bench and export build in memory).", valueName: "dir"))
    var lodCache: String?
    @Option(name: .customLong("lod-cache-limit-mb"), parsing: .unconditional, help: "Most megabytes the level-of-detail cache holds; least recently used trees go first (default 8192).",
            transform: Checked.integer(in: 1...(1 << 30), "MB"))
    var lodCacheLimitMB: Int?
    @Option(name: .customLong("max-memory"), parsing: .unconditional,
            help: "Most memory reading a plain capture and building its levels of detail may take, in bytes or with K, M, G (default 2G). A binary PLY that would need more is never held whole: built out of core into the level-of-detail cache (the window shows a subsample of it meanwhile).",
            transform: Checked.bytes(in: (256 << 20)...(1 << 50)))
    var maxMemory: Int?

    var options: LODOptions { options(defaultCache: nil) }

    /// The options, with `defaultCache` (the window's) used when no `--lod-cache` is named.
    func options(defaultCache: String?) -> LODOptions {
        var o = LODOptions()
        if let splatBudget { o.budget = splatBudget.splats; o.budgetNamed = splatBudget.splats != nil; o.automaticBudget = splatBudget.automatic }
        o.forcedLevel = lod
        if let maxMemory { o.maxMemoryBytes = maxMemory }
        if let folder = lodCache ?? defaultCache {
            o.treeCache = LODCache(folder: folder, limitBytes: lodCacheLimitMB.map { $0 << 20 } ?? LODCache.defaultLimitBytes)
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

/// The SCENE argument: `SceneSource.resolve`'s rule, its message without the name ArgumentParser
/// already prints.
enum SceneArgument {
    static func parse(_ text: String) throws -> SceneSource {
        do { return try SceneSource.resolve(text) } catch let ViewerError.sceneLoad(_, reason) { throw ArgumentRule(reason) }
    }
}
