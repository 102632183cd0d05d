import Downloads
import Media
import Foundation
import Procedural
import RenderCore
import SceneIO
import SplatLOD
import SplatRender
import TriangleRaster
import Workers

/// Opens what a user names on the command line: `cube`, `sphere:N` (a lit N-triangle sphere),
/// `generate:N` (an N-splat procedural object), a scene JSON, or a mesh, splat or point-cloud
/// file through SceneIO. Everything is read and validated in `init` — a room's wall pictures
/// and videos too — so errors come before any window opens. The videos a loader opened are
/// shared by the scenes it builds.
public struct SceneLoader {
    /// The scene as named.
    public private(set) var path: String
    var kind: Kind

    enum Kind {
        case description(SceneDescription, SceneDescription.Walls)
        case sphere(triangles: Int)
        case model(LoadedScene, name: String, sidecar: String?)
        /// A streamed SOG and the robust bounds of its coarsest level (the fit).
        case streamed(StreamedSOG, fitBounds: Bounds, name: String, sidecar: String)
        /// Model files placed together; each file read once (by its resolved path).
        case mixed(MixedSceneDescription, walls: SceneDescription.Walls?, files: [String: ObjectModel], name: String)
        /// An animated capture with its first frame decoded (the fit); `sidecar`: where its placement is saved.
        case sequence(SplatSequence, first: SplatCloud, sidecar: String?)
    }

    /// Options for model files.
    public struct ModelOptions: Sendable {
        /// Up axis; nil = the sidecar's, else +y for meshes and −y for splats (3DGS captures are y-down).
        public var up: UpAxis?
        /// Draw the parallax-cube room around the model.
        public var room = false
        /// Light back faces as front faces (meshes wound inconsistently); on by default for files.
        public var twoSided = true
        /// Cull back faces (closed, consistently wound meshes).
        public var cullBackFaces = false
        /// Splats: Mip-Splatting-style opacity compensation (off reproduces the 3DGS reference);
        /// nil follows the file (an .spz flagged "antialiased" turns it on).
        public var antialias: Bool?
        /// Light back faces of the built-in meshes too (the room, `sphere:N`): glref `--two-sided`.
        public var twoSidedBuiltIns = false
        /// How the room's video walls follow the frame clock: `.realtime` for the window (never
        /// waits for the decoder), `.frameExact` for bench and export (deterministic frames).
        public var videoPlayback = VideoTexture.Playback.realtime
        /// The command line's room options (walls, depth, targets): the room `cube` names (default:
        /// the plain room), and what they change in a scene JSON's room (`overridden(by:)`).
        public var cubeRoom: SceneDescription?
        /// Streamed SOG (`lod-meta.json`): the splat budget, a forced level, the cache bound. Chunks
        /// stream in on a background thread with `.realtime` `videoPlayback` (the window), and
        /// load on the frame's thread with `.frameExact` (render, bench, export).
        public var lod = LODOptions()
        /// Scenes named by URL: where they are cached (none: a temporary folder removed once the
        /// file is read), the size limit, plain http.
        public var download = DownloadOptions(cacheFolder: nil)
        /// Animated captures with `.realtime` `videoPlayback` (the window): the memory bound of the
        /// frames decoded ahead (bytes of prepared splats; `SequenceDecodeAhead`). Frame-exact
        /// playback decodes the due frame on the frame's thread instead.
        public var sequenceBudgetBytes = SplatSequenceScene.defaultBudgetBytes
        public init() {}
    }

    public var options = ModelOptions()
    /// Whether the file asked for antialiased rendering (SPZ flag 0x1, PLY `SplatRenderMode: mip`).
    public private(set) var fileAntialiased = false
    /// `options` with what the file asked for where the user said nothing (antialiasing), for the
    /// scenes built with levels of detail as for the capture drawn whole.
    var optionsWithFileFlags: ModelOptions {
        var o = options
        if o.antialias == nil { o.antialias = fileAntialiased }
        return o
    }
    /// What the reader noticed but read past (e.g. unknown PLY header lines), one line each.
    public private(set) var warnings: [String] = []
    /// The file's summary (format, counts) when a model file was read; nil for built-in scenes
    /// and scene JSON.
    public private(set) var info: SceneInfo?

    /// Reads the scene `path` names (see `SceneSource.resolve`), reporting progress of long
    /// loads as (bytes done, bytes total). `cancelled` is asked between steps (before each file,
    /// through a download and a level-of-detail build); when it answers true the load throws
    /// `ViewerError.cancelled`.
    public static func load(path: String, options: ModelOptions = ModelOptions(), progress: ((Int, Int) -> Void)? = nil,
                            cancelled: (@Sendable () -> Bool)? = nil) throws -> SceneLoader {
        try load(source: SceneSource.resolve(path), options: options, progress: progress, cancelled: cancelled)
    }

    /// Reads `source`: files through SceneIO (or a download first), a room's wall pictures and
    /// videos opened, a plain capture's levels of detail built when it is drawn under a budget.
    /// Progress and cancellation as in `load(path:)`.
    public static func load(source: SceneSource, options: ModelOptions = ModelOptions(), progress: ((Int, Int) -> Void)? = nil,
                            cancelled: (@Sendable () -> Bool)? = nil) throws -> SceneLoader {
        try SceneLoader(source: source, options: options, progress: progress, cancelled: cancelled ?? { false })
    }

    private init(source: SceneSource, options: ModelOptions, progress: ((Int, Int) -> Void)?, cancelled: @escaping @Sendable () -> Bool) throws {
        self.path = source.description
        self.options = options
        if cancelled() { throw ViewerError.cancelled(path: source.description) }
        switch source {
        case .room:
            let d = options.cubeRoom ?? SceneDescription()
            kind = .description(d, try d.openWalls(playback: options.videoPlayback))
        case .sphere(let n):
            kind = .sphere(triangles: n)
        case .generated(let n):
            kind = .model(.splats(SplatSceneGenerator.object(count: n)), name: "generate:\(n)", sidecar: nil)
            if self.options.up == nil { self.options.up = .posY }   // the generator builds y-up scenes
        case .sceneJSON(let path):
            switch try SceneJSON.load(path) {
            case .room(var d):
                if let overrides = options.cubeRoom { d = d.overridden(by: overrides) }
                kind = .description(d, try d.openWalls(playback: options.videoPlayback))
            case .mixed(var m):
                if let room = m.room {
                    m.room = options.cubeRoom.map { room.overridden(by: $0) } ?? room
                } else if options.room {
                    m.room = options.cubeRoom ?? SceneDescription()
                }
                let walls = try m.room?.openWalls(playback: options.videoPlayback)
                var files: [String: ObjectModel] = [:]
                for o in m.objects where files[o.file] == nil {
                    if cancelled() { throw ViewerError.cancelled(path: path) }
                    var model = try Self.objectModel(o.file, in: path, download: options.download, progress: progress, cancelled: cancelled)
                    try Self.addLevels(to: &model, file: o.file, in: path, lod: options.lod, cancelled: cancelled)
                    warnings += model.warnings
                    files[o.file] = model
                }
                kind = .mixed(m, walls: walls, files: files, name: (path as NSString).lastPathComponent)
            case .sequence(let sequence):
                (kind, fileAntialiased, warnings) = try Self.sequenceKind(sequence, sidecar: nil, cancelled: cancelled)
            }
        case .sequence(let path):
            (kind, fileAntialiased, warnings) = try Self.sequenceKind(try SplatSequence.open(path), sidecar: path, cancelled: cancelled)
        case let .streamedSOG(path, meta):
            let sog = try StreamedSOG.open(meta)
            if let l = options.lod.forcedLevel, l < 0 || l >= sog.levelCount {
                throw ViewerError.sceneLoad(path: meta, reason: "level \(l) asked for; this streamed SOG has levels 0…\(sog.levelCount - 1)")
            }
            warnings = sog.warnings
            // SplatFrame's own trees record the whole capture's fit; others are fitted by their coarsest level.
            let (bounds, notes) = sog.fitBounds.map { ($0, []) } ?? Self.streamedFitBounds(sog)
            warnings += notes
            progress?(1, 1)
            let name = (path as NSString).lastPathComponent.lowercased() == "lod-meta.json"
                ? ((meta as NSString).deletingLastPathComponent as NSString).lastPathComponent : (path as NSString).lastPathComponent
            kind = .streamed(sog, fitBounds: bounds, name: name, sidecar: path)
        case .url(let url):
            let result = try Downloader.fetch(url, options: options.download, progress: progress.map { report in
                { done, total in report(Int(done), Int(total ?? 0)) }
            }, cancelled: cancelled)
            defer { if let t = result.temporaryFolder { try? FileManager.default.removeItem(atPath: t) } }
            self = try SceneLoader(source: SceneSource.resolve(result.path), options: options, progress: progress, cancelled: cancelled)
            if let note = result.note { warnings.insert(note, at: 0) }
            return
        case .file(let path):
            let name = URL(fileURLWithPath: path).lastPathComponent
            // A tree already cached for this capture: drawn at once, the capture itself not read.
            if options.lod.budget != nil || options.lod.forcedLevel != nil,
               let (sog, entry) = CaptureLOD.cached(path, cache: options.lod.treeCache),
               options.lod.drawsLevels(captureSplats: entry.captureSplats) {
                try Self.checkForcedLevel(options.lod, sog, path)
                progress?(1, 1)
                kind = .streamed(sog, fitBounds: sog.fitBounds ?? Self.streamedFitBounds(sog).0, name: name, sidecar: path)
                levelsFrom = .cache
                return
            }
            // A capture too large to read whole and build in memory: never held (`SceneLoader+TooLarge`).
            if options.lod.budget != nil || options.lod.forcedLevel != nil, let cache = options.lod.treeCache,
               let big = CaptureLOD.tooLarge(path, maxMemory: options.lod.maxMemoryBytes), options.lod.drawsLevels(captureSplats: big.splats),
               let opened = try Self.tooLargeKind(big, path: path, name: name, options: options, cache: cache, progress: progress, cancelled: cancelled) {
                (kind, pendingLevels, levelsFrom, warnings) = opened
                return
            }
            let (scene, info) = try SceneFile.loadWithInfo(path: path, progress: progress)
            if cancelled() { throw ViewerError.cancelled(path: path) }
            fileAntialiased = info.antialiased ?? false
            warnings = info.warnings
            self.info = info
            kind = .model(scene, name: name, sidecar: path)
            guard case .splats(let cloud) = scene, options.lod.drawsLevels(captureSplats: cloud.count) else { return }
            if options.videoPlayback == .realtime {
                // The window draws the whole capture and builds the tree in the background.
                pendingLevels = PendingLevels(cloud: cloud, path: path)
                return
            }
            do {
                // The builder reports from its workers: one at a time through the lock.
                // Audited: `progress` is called only under this lock, and only while this thread waits in `make`.
                let report = Locked(unchecked: progress)
                let made = try CaptureLOD.make(cloud, path: path, cache: options.lod.treeCache, cancelled: cancelled, progress: { f in
                    report.withLock { $0?(Int(f * 1000), 1000) }
                })
                try Self.checkForcedLevel(options.lod, made.sog, path)
                warnings += made.notes
                levelsFrom = made.origin
                kind = .streamed(made.sog, fitBounds: made.sog.fitBounds ?? RobustBounds.of(cloud.positions), name: name, sidecar: path)
            } catch let e as LODMemoryError {
                warnings.append("\(e); drawn whole")
            }
        }
    }

    /// A plain capture whose tree the window builds in the background (`levelOfDetailScene`).
    public struct PendingLevels: Sendable {
        /// The capture as read; nil when it is too large to hold (built out of core from `path`).
        let cloud: SplatCloud?
        let path: String
        /// The capture's splats and SH degree.
        var splats = 0, shDegree = 0
    }

    /// Set when the window should build levels of detail for the capture it first draws whole.
    public private(set) var pendingLevels: PendingLevels?
    /// Where a plain capture's levels of detail came from (nil: not drawn with levels).
    public private(set) var levelsFrom: CaptureLOD.Origin?

    /// The capture of `pendingLevels` drawn with levels of detail (built, or read from the cache),
    /// placed as its whole-capture scene is; and the notes on the way (cache refused…).
    /// `progress` gets the fraction done; `cancelled` stops the build (it then throws).
    public func levelOfDetailScene(screen: ScreenGeometry, cancelled: (@Sendable () -> Bool)? = nil,
                                   progress: (@Sendable (Double) -> Void)? = nil) throws -> (scene: Scene, notes: [String]) {
        guard let pending = pendingLevels, case let .model(_, name, sidecar) = kind else {
            throw ViewerError.sceneLoad(path: path, reason: "no capture waits for levels of detail")
        }
        let made = try Self.levelOfDetailScene(pending, name: name, sidecar: sidecar, options: optionsWithFileFlags, screen: screen,
                                               cancelled: cancelled, progress: progress)
        return (made.scene, made.notes)
    }

    /// The capture of `pending` with its levels of detail (built, or read from the cache), named
    /// `name` and placed by the sidecar of `sidecar` (else of the capture) under `options`.
    static func levelOfDetailScene(_ pending: PendingLevels, name: String, sidecar: String?, options: ModelOptions,
                                   screen: ScreenGeometry, cancelled: (@Sendable () -> Bool)?,
                                   progress: (@Sendable (Double) -> Void)?, detail: (@Sendable (String) -> Void)? = nil)
        throws -> (scene: Scene, notes: [String], outOfCore: OutOfCoreBuilder.Result?) {
        guard let cloud = pending.cloud else {
            return try tooLargeScene(pending, name: name, sidecar: sidecar, options: options, screen: screen, cancelled: cancelled,
                                     progress: progress, detail: detail)
        }
        let made = try CaptureLOD.make(cloud, path: pending.path, cache: options.lod.treeCache, cancelled: cancelled,
                                       progress: progress)
        try checkForcedLevel(options.lod, made.sog, pending.path)
        let scene = try streamedScene(made.sog, fitBounds: made.sog.fitBounds ?? RobustBounds.of(cloud.positions),
                                      name: name, sidecar: sidecar ?? pending.path, screen: screen, options: options)
        return (scene, made.notes, nil)
    }

    static func checkForcedLevel(_ lod: LODOptions, _ sog: StreamedSOG, _ path: String) throws {
        if let l = lod.forcedLevel, l < 0 || l >= sog.levelCount {
            throw ViewerError.sceneLoad(path: path, reason: "level \(l) asked for; its levels of detail are 0…\(sog.levelCount - 1)")
        }
    }

    /// The bounds a streamed SOG is fitted by: the robust bounds of its coarsest level (decoded
    /// now — it is small, and the same whatever the eye does), else the union of its leaves' boxes.
    static func streamedFitBounds(_ sog: StreamedSOG) -> (Bounds, [String]) {
        var positions: [Vec3] = []
        var notes: [String] = []
        var loaded: [Int: SplatCloud] = [:]
        for n in sog.nodes.indices {
            guard let l = (0..<sog.levelCount).reversed().first(where: { sog.usableRange(node: n, level: $0) != nil }),
                  let r = sog.usableRange(node: n, level: l), r.count <= 2_000_000 else { continue }
            if loaded[r.chunk] == nil {
                guard loaded.count < 16 else { break }
                do { loaded[r.chunk] = try sog.loadChunk(r.chunk) } catch { notes.append("\(error)"); continue }
            }
            guard let cloud = loaded[r.chunk], r.offset + r.count <= cloud.count else { continue }
            positions += cloud.positions[r.indices]
        }
        let robust = RobustBounds.of(positions)
        return (robust.isEmpty ? sog.bounds : robust, notes)
    }

    /// The scene placed behind `screen` for viewing through the window.
    public func scene(screen: ScreenGeometry) throws -> Scene {
        let built: MeshScene
        switch kind {
        case let .description(d, walls):
            built = d.scene(screen: screen, walls: walls)
        case let .sphere(n):
            built = Self.sphereScene(triangles: n, screen: screen)
        case let .model(loaded, name, sidecar):
            if case let .mixed(mesh, cloud) = loaded {
                return try mixedModelScene(mesh, cloud, name: name, sidecar: sidecar, screen: screen)
            }
            return try modelScene(loaded, name: name, sidecar: sidecar, screen: screen)
        case let .streamed(sog, bounds, name, sidecar):
            return try Self.streamedScene(sog, fitBounds: bounds, name: name, sidecar: sidecar, screen: screen, options: optionsWithFileFlags)
        case let .mixed(d, walls, files, name):
            return mixedScene(d, walls: walls, files: files, name: name, screen: screen)
        case let .sequence(sequence, first, sidecar):
            return try sequenceScene(sequence, first: first, sidecar: sidecar, screen: screen)
        }
        if options.twoSidedBuiltIns {
            for i in built.items.indices { built.items[i].settings.twoSidedLighting = true }
        }
        return built
    }

    /// The scene in its file's own coordinates (for `--camera`): no re-centring, scaling or room.
    public func sceneInOwnCoordinates(screen: ScreenGeometry) throws -> Scene {
        if case let .model(loaded, name, sidecar) = kind {
            if case let .mixed(mesh, cloud) = loaded {
                let s = try mixedModelScene(mesh, cloud, name: name, sidecar: sidecar, screen: screen, room: false)
                s.model?.ownCoordinates = true
                return s
            }
            return try modelScene(loaded, name: name, sidecar: sidecar, screen: screen).ownCoordinatesCopy()
        }
        if case let .streamed(sog, bounds, name, sidecar) = kind {
            let s = try Self.streamedScene(sog, fitBounds: bounds, name: name, sidecar: sidecar, screen: screen, options: optionsWithFileFlags, room: false)
            s.ownCoordinates = true
            return s
        }
        if case let .sequence(sequence, first, sidecar) = kind {
            let s = try sequenceScene(sequence, first: first, sidecar: sidecar, screen: screen, room: false)
            s.ownCoordinates = true
            return s
        }
        return try scene(screen: screen)
    }

    /// A streamed SOG placed like a splat model (the same fit and placement defaults).
    static func streamedScene(_ sog: StreamedSOG, fitBounds: Bounds, name: String, sidecar: String, screen: ScreenGeometry,
                                      options: ModelOptions, room: Bool? = nil) throws -> LODSplatScene {
        let saved = try Placement.load(sidecarFor: sidecar)
        let placement = options.up.map(Placement.init(up:)) ?? saved ?? Placement(up: .negY)
        let fit = SceneFit(bounds: fitBounds, screen: screen, depth: screen.width)
        let roomMesh = (room ?? options.room) ? CubeRoom(screen: screen, showTargets: false).mesh() : nil
        let scene = LODSplatScene(name: name, sog: sog, fit: fit, placement: placement, room: roomMesh, options: options.lod,
                                  realtime: options.videoPlayback == .realtime)
        scene.antialias = options.antialias ?? false
        return scene
    }

    private func modelScene(_ loaded: LoadedScene, name: String, sidecar: String?, screen: ScreenGeometry) throws -> ModelScene {
        let scene = try placedModel(loaded, name: name, sidecar: sidecar, screen: screen)
        scene.antialias = options.antialias ?? fileAntialiased
        return scene
    }

    private func placedModel(_ loaded: LoadedScene, name: String, sidecar: String?, screen: ScreenGeometry) throws -> ModelScene {
        let saved = try sidecar.flatMap { try Placement.load(sidecarFor: $0) }
        let depth = screen.width
        let room = options.room ? CubeRoom(screen: screen, showTargets: false).mesh() : nil
        switch loaded {
        case let .mesh(file), let .mixed(file, _):          // (a file holding both is a `mixedModelScene`)
            let mesh = Self.drawable(file)
            let placement = options.up.map(Placement.init(up:)) ?? saved ?? Placement(up: .posY)
            let fit = SceneFit(bounds: mesh.bounds, screen: screen, depth: depth)
            let settings = RasterSettings(cullBackFaces: options.cullBackFaces, twoSidedLighting: options.twoSided)
            return ModelScene(name: name, content: .mesh(mesh, settings), fit: fit, placement: placement, room: room)
        case let .splats(cloud):
            let placement = options.up.map(Placement.init(up:)) ?? saved ?? Placement(up: .negY)
            let fit = SceneFit(bounds: RobustBounds.of(cloud.positions), screen: screen, depth: depth)
            return ModelScene(name: name, content: .splats(SplatRenderer.prepare(cloud)), fit: fit, placement: placement, room: room)
        case let .points(points):
            let b = RobustBounds.of(points.positions)
            let placement = options.up.map(Placement.init(up:)) ?? saved ?? Placement(up: .posY)
            let fit = SceneFit(bounds: b, screen: screen, depth: depth)
            return ModelScene(name: name, content: .splats(SplatRenderer.prepare(Self.splats(points))), fit: fit, placement: placement, room: room)
        }
    }

    /// A glTF holding meshes and splats: one `MixedScene` — meshes drawn first, the splats
    /// depth-tested against them, as every mixed scene composites — its objects in the file's
    /// frame and placed together like a model (fitted by both; y up, as glTF is).
    private func mixedModelScene(_ file: TriangleMesh, _ cloud: SplatCloud, name: String, sidecar: String?, screen: ScreenGeometry,
                                 room: Bool? = nil) throws -> MixedScene {
        let saved = try sidecar.flatMap { try Placement.load(sidecarFor: $0) }
        let placement = options.up.map(Placement.init(up:)) ?? saved ?? Placement(up: .posY)
        let mesh = Self.drawable(file)
        let splatBounds = RobustBounds.of(cloud.positions)
        let fit = SceneFit(bounds: mesh.bounds.union(splatBounds), screen: screen, depth: screen.width)
        let settings = RasterSettings(cullBackFaces: options.cullBackFaces, twoSidedLighting: options.twoSided)
        let splats = MixedScene.SplatObject(splats: SplatRenderer.prepare(cloud), matrix: .identity,
                                            centre: splatBounds.isEmpty ? .zero : splatBounds.center,
                                            antialias: options.antialias ?? fileAntialiased)
        let roomMesh = (room ?? options.room) ? CubeRoom(screen: screen, showTargets: false).mesh() : nil
        return MixedScene(name: name, room: roomMesh, meshes: [.init(mesh: mesh, matrix: .identity, settings: settings)],
                          splatObjects: [splats], model: PlacedModel(fit: fit, placement: placement, room: nil))
    }

    /// A mesh as the viewer draws it: normals made where missing, a material, and the llvmpipe
    /// baseline's 0.8 grey for meshes without colour or texture.
    static func drawable(_ file: TriangleMesh) -> TriangleMesh {
        var mesh = file
        mesh.computeNormalsIfMissing()
        if mesh.materials.isEmpty { mesh.materials = [.init()] }
        for i in mesh.materials.indices where mesh.materials[i].texture == nil && mesh.colors.isEmpty
            && mesh.materials[i].baseColor == Vec4(1, 1, 1, 1) {
            mesh.materials[i].baseColor = Vec4(0.8, 0.8, 0.8, 1)
        }
        return mesh
    }

    /// Points as small round splats: one clear mechanism for everything that is not triangles.
    static func splats(_ points: PointCloud) -> SplatCloud {
        let b = RobustBounds.of(points.positions)
        let radius = max(1e-6, (b.isEmpty ? 1 : b.size.length) * 0.0015)
        var cloud = SplatCloud(shDegree: 0)
        cloud.reserveCapacity(points.count)
        for i in 0..<points.count {
            let c = i < points.colors.count ? points.colors[i] : Vec4(0.85, 0.85, 0.85, 1)
            cloud.append(position: points.positions[i], scale: Vec3(repeating: radius), rotation: .identity,
                         opacity: 1, dc: SplatCloud.dcFromColor(Vec3(c.x, c.y, c.z)))
        }
        return cloud
    }

    /// A mixed scene's object as read: the model and the axis that is up unless the JSON says.
    struct ObjectModel {
        var scene: LoadedScene
        var up: UpAxis
        /// What the reader noticed; whether the file asked for antialiased rendering.
        var warnings: [String] = []
        var antialiased = false
        /// Its splats' levels of detail (a streamed SOG, or a tree built for a large capture):
        /// then the object is drawn through them under its share of the scene's budget.
        var tree: StreamedSOG?
    }

    /// Reads one object of the mixed scene `json`: a model file, `sphere:N` or `generate:N`.
    private static func objectModel(_ file: String, in json: String, download: DownloadOptions,
                                    progress: ((Int, Int) -> Void)?, cancelled: @escaping @Sendable () -> Bool) throws -> ObjectModel {
        switch try SceneSource.resolve(file) {
        case .url(let url):
            let result = try Downloader.fetch(url, options: download, cancelled: cancelled)
            defer { if let t = result.temporaryFolder { try? FileManager.default.removeItem(atPath: t) } }
            var model = try objectModel(result.path, in: json, download: download, progress: progress, cancelled: cancelled)
            if let note = result.note { model.warnings.insert(note, at: 0) }
            return model
        case .sphere(let n):
            let res = MeshGenerator.sphereResolution(triangles: n)
            var mesh = MeshGenerator.sphere(center: .zero, radius: 1, segments: res.segments, rings: res.rings)
            mesh.materials = [.init(name: "grey", baseColor: Vec4(0.8, 0.8, 0.8, 1))]
            return ObjectModel(scene: .mesh(mesh), up: .posY)
        case .generated(let n):
            return ObjectModel(scene: .splats(SplatSceneGenerator.object(count: n)), up: .posY)
        case .room, .sceneJSON, .sequence:
            throw ViewerError.sceneLoad(path: file, reason: "a scene's objects are model files, not the room or scene JSON (in \(json))")
        case .file(let path), .streamedSOG(let path, _):
            let (scene, info) = try SceneFile.loadWithInfo(path: path, progress: progress)
            var up = UpAxis.posY
            if case .splats = scene { up = .negY }
            return ObjectModel(scene: scene, up: up, warnings: info.warnings, antialiased: info.antialiased ?? false)
        }
    }

    /// A mixed scene's objects placed for `screen`, inside its room if it has one.
    private func mixedScene(_ d: MixedSceneDescription, walls: SceneDescription.Walls?, files: [String: ObjectModel],
                            name: String, screen: ScreenGeometry) -> MixedScene {
        var meshes: [MixedScene.MeshObject] = []
        var splatObjects: [MixedScene.SplatObject] = []
        var prepared: [String: PreparedSplats] = [:]
        let settings = RasterSettings(cullBackFaces: options.cullBackFaces, twoSidedLighting: options.twoSided)
        for o in d.objects {
            guard let model = files[o.file] else { continue }
            let cloud: SplatCloud, up = model.up
            var matrix: Matrix4?
            switch model.scene {
            case .mesh(let m):
                let mesh = Self.drawable(m)
                meshes.append(.init(mesh: mesh, matrix: o.matrix(bounds: mesh.bounds, up: up, screen: screen), settings: settings))
                continue
            case .splats(let s): cloud = s
            case .points(let p): cloud = Self.splats(p)
            case let .mixed(m, s):
                // A file holding both: its mesh and its splats placed together, by their joint bounds.
                let mesh = Self.drawable(m)
                let joint = o.matrix(bounds: mesh.bounds.union(RobustBounds.of(s.positions)), up: up, screen: screen)
                meshes.append(.init(mesh: mesh, matrix: joint, settings: settings))
                cloud = s
                matrix = joint
            }
            let bounds = RobustBounds.of(cloud.positions)
            let placed = matrix ?? o.matrix(bounds: bounds, up: up, screen: screen)
            let c = placed.transform(point: bounds.isEmpty ? .zero : bounds.center)
            let antialias = options.antialias ?? model.antialiased
            if let tree = model.tree {
                // Drawn through its levels, each object its own (they stream independently).
                splatObjects.append(.init(levels: StreamedLevels(sog: tree, options: options.lod, realtime: options.videoPlayback == .realtime),
                                          matrix: placed, centre: Vec3(c.x, c.y, c.z) / c.w, antialias: antialias))
                continue
            }
            let splats = prepared[o.file] ?? SplatRenderer.prepare(cloud)
            prepared[o.file] = splats
            splatObjects.append(.init(splats: splats, matrix: placed, centre: Vec3(c.x, c.y, c.z) / c.w, antialias: antialias))
        }
        var room: TriangleMesh?
        var videos: [VideoTexture] = []
        if let r = d.room, let walls {
            room = r.room(screen: screen, walls: walls).mesh()
            videos = CubeRoom.Wall.allCases.compactMap { walls.videos[$0] }
        }
        let scene = MixedScene(name: name, room: room, meshes: meshes, splatObjects: splatObjects, videos: videos)
        scene.budgetIsPinned = options.lod.budgetIsPinned
        if let budget = options.lod.budget { scene.splatBudget = budget }
        return scene
    }

    /// A lit grey sphere of about `triangles` triangles whose silhouette fills about a third of the
    /// screen seen from the neutral eye, with back faces culled (a closed mesh).
    static func sphereScene(triangles: Int, screen: ScreenGeometry) -> MeshScene {
        let res = MeshGenerator.sphereResolution(triangles: triangles)
        let radius = 0.19 * screen.height / 0.34
        var mesh = MeshGenerator.sphere(center: Vec3(0, 0, -radius), radius: radius, segments: res.segments, rings: res.rings)
        mesh.materials = [.init(name: "grey", baseColor: Vec4(0.8, 0.8, 0.8, 1))]
        return MeshScene(name: "sphere:\(mesh.triangleCount)", items: [(mesh, .identity, RasterSettings(cullBackFaces: true))])
    }
}

extension ModelScene {
    /// This scene drawn in its own coordinates (camera JSON mode).
    func ownCoordinatesCopy() -> ModelScene {
        let m = ModelScene(name: name, content: content, fit: fit, placement: modelPlacement, room: nil)
        m.ownCoordinates = true
        m.antialias = antialias
        return m
    }
}

/// The window's background work for a plain capture drawn whole at first: its levels of detail
/// built (or read from the cache) and placed as the whole capture was (`SceneLoader.levelOfDetailScene`).
public final class LevelOfDetailJob: Sendable {
    private let pending: SceneLoader.PendingLevels
    private let sceneName: String, sidecar: String?
    private let options: SceneLoader.ModelOptions
    private let screen: ScreenGeometry
    /// The capture's file name.
    public let name: String
    private let outOfCoreBuild = Locked<OutOfCoreBuilder.Result?>(nil)

    init(pending: SceneLoader.PendingLevels, sceneName: String, sidecar: String?, options: SceneLoader.ModelOptions,
         screen: ScreenGeometry, name: String) {
        self.pending = pending; self.sceneName = sceneName; self.sidecar = sidecar; self.options = options
        self.screen = screen; self.name = name
    }

    /// Whether the capture is too large to hold: a subsample is shown while its tree is built
    /// out of core (else the whole capture is).
    public var isOutOfCore: Bool { pending.cloud == nil }

    /// Builds the scene (see `SceneLoader.levelOfDetailScene`); runs on any one thread. `detail`
    /// gets a line on where an out-of-core build is (regions, time left).
    public func run(cancelled: (@Sendable () -> Bool)?, progress: (@Sendable (Double) -> Void)?,
                    detail: (@Sendable (String) -> Void)? = nil) throws -> (scene: Scene, notes: [String]) {
        let made = try SceneLoader.levelOfDetailScene(pending, name: sceneName, sidecar: sidecar, options: options, screen: screen,
                                                      cancelled: cancelled, progress: progress, detail: detail)
        if let result = made.outOfCore { outOfCoreBuild.set(result) }
        return (made.scene, made.notes)
    }

    /// What the last out-of-core build of `run` did (regions, most splats held); nil before one.
    public var lastOutOfCoreBuild: OutOfCoreBuilder.Result? { outOfCoreBuild.withLock { $0 } }
}

extension SceneLoader {
    /// The background job that gives the window this capture's levels of detail, when it waits
    /// for one (`pendingLevels`); `screen` as for `scene(screen:)`.
    public func levelOfDetailJob(screen: ScreenGeometry) -> LevelOfDetailJob? {
        guard let p = pendingLevels, case let .model(_, name, sidecar) = kind else { return nil }
        return LevelOfDetailJob(pending: p, sceneName: name, sidecar: sidecar, options: optionsWithFileFlags, screen: screen,
                                name: (p.path as NSString).lastPathComponent)
    }
}
