// SceneScreen — the scene through the window: each frame reads the head pose, renders through
// the off-axis frustum (mono or stereo), overlays the HUD, camera inset, help and messages, and
// presents. Its parts keep their own state: the pointer (`PointerControl`), background loads
// (`BackgroundSceneLoads`), screenshots (`ScreenshotRequests`), timing and latency (`FrameTiming`),
// webcam calibration (`WebcamCalibrationControl`) and the true-window viewport (`WindowViewport`);
// the screen itself keeps what it shows (HUD, camera inset, the message) and composes them.
import CSDL2
import Foundation
import HeadTracking
import LatencyRig
import RenderCore
import Settings
import Viewer

/// The scene screen. Frame loop only (not thread-safe).
final class SceneScreen {
    let window: SDLWindow
    let driver: FrameDriver
    let tracking: HeadTrackingSession
    let eyes: LiveEyeSource
    /// `--stereo`: two eyes composed into its own output.
    let stereo: StereoRenderer?
    let text: WindowText
    /// Options for scenes opened by a drop or the library.
    let dropOptions: SceneLoader.ModelOptions
    /// The user's file the shown model came from (placement saved beside it), if any.
    private(set) var modelFile: String?

    /// The scene. With frames drawn on their own thread (`--reproject async`) use it only inside `idle`.
    var scene: Scene { driver.scene }
    /// What is presented: the stereo composition, the late-reprojected frame, or the frame as drawn.
    var framebuffer: Framebuffer {
        if let async { return async.latch.output }
        return stereo?.output ?? (latched ? reprojection?.output : nil) ?? driver.framebuffer
    }
    /// The viewing set-up frames are drawn with: the screen, and the part of it the window shows
    /// (`prepareFrame`).
    var setup: ViewingSetup
    /// The framebuffer size frames are drawn at (pixels).
    private var frameSize = (width: 1, height: 1)
    /// What the HUD shows of the scene (async: read when the frame on show was taken).
    var sceneFigures: SceneFigures { async == nil ? SceneFigures(scene) : asyncFigures }
    private var asyncFigures: SceneFigures

    // What the screen shows besides the scene.
    private(set) var showHUD = true
    private var showCamera = false
    private var message: (text: String, until: Double)?

    // Its parts, each with its own state.
    private var pointer = PointerControl()
    private var loads = BackgroundSceneLoads()
    private var screenshots = ScreenshotRequests()
    private(set) var timing = FrameTiming()
    private let calibration: WebcamCalibrationControl
    private var viewport = WindowViewport()
    /// `--reproject on`: each frame warped to the newest eye before it is presented (in stereo,
    /// each eye to its own point, composed again into the stereo output).
    private let reprojection: LateLatch?
    /// Whether the frame on show is the late latch's warp.
    private var latched = false
    /// `--reproject auto`: the late latch runs (and splats write depth) only while frames are
    /// slow (`updateAutomaticReprojection`).
    private let automaticReprojection: Bool
    private var automaticLatching = false
    /// `--reproject async`: frames drawn on their own thread, every refresh warped to its own
    /// eye. The driver is then the render thread's but inside `idle`.
    private let async: AsyncPresentation?

    /// The frame-time governor: a capture's splat budget (and render scale) chosen each frame to
    /// hold the target frame rate (`--reproject async`: the render rate, its budget alone).
    private var governing: WindowGovernor
    private var previousPresent: Double?
    /// The HUD's line about the governor's choice, while it governs.
    var governorSummary: String? { governing.summary }
    /// The splat budget the governor chose for the next frame (nil: nothing governed).
    var governedBudget: Int? { governing.governor?.budget }
    /// Splats the last governed frame showed (nil: nothing governed).
    var governedShown: Int? { governing.governor != nil ? governing.shownSplats : nil }

    /// The window's place on its display, as of the last `updateViewport`.
    var placement: WindowPlacement? { viewport.placement }
    /// The median render time (ms) of the recent frames (`FrameTiming`).
    var medianFrameMs: Double { timing.medianFrameMs }

    init(window: SDLWindow, driver: FrameDriver, tracking: HeadTrackingSession, stereo: StereoRenderer?, text: WindowText,
         modelFile: String?, configPath: String?, dropOptions: SceneLoader.ModelOptions, reprojection: LateLatch? = nil,
         asynchronous: Bool = false, automatic: Bool = false, targetFps: Double = 60) {
        self.window = window; self.driver = driver; self.tracking = tracking; self.stereo = stereo; self.text = text
        self.reprojection = reprojection
        let asyncMono = asynchronous && stereo == nil
        governing = WindowGovernor(targetFps: targetFps, scalesFrame: !asyncMono)
        automaticReprojection = automatic && reprojection != nil && !asynchronous
        setup = driver.setup
        asyncFigures = SceneFigures(driver.scene)
        async = asyncMono ? AsyncPresentation(driver: driver, refreshRate: window.refreshRate()) : nil
        self.modelFile = modelFile; self.dropOptions = dropOptions
        calibration = WebcamCalibrationControl(configPath: configPath)
        eyes = LiveEyeSource(session: tracking)
    }

    /// The late latch's figure for the HUD while it warps the frame on show (sync modes).
    var latchSummary: String? {
        guard async == nil, latched, let r = reprojection else { return nil }
        return String(format: "warped to the late eye in %.1f ms%@", r.lastWarpMs, automaticReprojection ? " (auto)" : "")
    }

    /// Whether frames are drawn on their own thread (`--reproject async`).
    var isAsynchronous: Bool { async != nil }

    /// Runs `body` while no frame is being drawn (`--reproject async`: waits for the frame in
    /// flight); anything that touches the driver or the scene goes through it. `skip`: run it
    /// at once (what cannot touch them).
    func idle(unless skip: Bool = false, _ body: () throws -> Void) rethrows {
        if let async, !skip { try async.renderer.whenIdle { _ in try body() } } else { try body() }
    }

    /// Whether `event` is the mouse moving with no button held: it moves the mouse head and
    /// touches no scene.
    func isHover(_ event: SDL_Event) -> Bool {
        event.type == SDL_MOUSEMOTION.rawValue && !pointer.isDragging
    }

    /// Shows `text` at the bottom of the HUD for `seconds`.
    func flash(_ text: String, seconds: Double = 2.5) { message = (text, MonotonicClock.now() + seconds) }

    /// The message still showing, if any.
    var currentMessage: String? { message.flatMap { MonotonicClock.now() < $0.until ? $0.text : nil } }

    // MARK: actions

    /// Performs a scene action (placement, overlays, screenshots, webcam calibration).
    func perform(_ action: WindowAction) {
        switch action {
        case .toggleFullscreen: window.toggleFullscreen()
        case .toggleHUD: showHUD.toggle()
        case .screenshot: screenshots.request()
        case .toggleCameraInset:
            if tracking.source is CameraTrackingSource { showCamera.toggle() } else {
                flash("NO CAMERA: THE HEAD SOURCE IS \(tracking.source.name.uppercased())")
            }
        case .calibrateWebcam: startWebcamCalibration()
        case .turnModel(let yaw, let pitch): place { $0.yaw += yaw; $0.pitch += pitch }
        case .zoomModel(let f): place { $0.zoom *= f }
        case .cycleUpAxis:
            place { $0.up = $0.up.next; flash("UP AXIS \($0.up.rawValue.uppercased())") }
        case .resetPlacement: place { $0 = Placement(up: $0.up); flash("PLACEMENT RESET") }
        case .togglePlaying, .stepFrames:
            guard let sequence = scene as? SplatSequenceScene else { return flash("NOT AN ANIMATED CAPTURE") }
            if case .stepFrames(let n) = action { sequence.step(by: n) } else { sequence.togglePlaying() }
            flash("\(sequence.clock.isPlaying ? "PLAYING" : "PAUSED") FRAME \(sequence.clock.frame + 1)/\(sequence.clock.count)")
        case .savePlacement:
            guard let p = scene.placement, let file = modelFile else { return }
            do {
                try p.save(sidecarFor: file)
                flash("SAVED \(Placement.sidecarPath(for: file))")
            } catch { flash("\(error)") }
        default: break
        }
    }

    /// Changes the model's placement; false when the scene has none.
    @discardableResult
    private func place(_ change: (inout Placement) -> Void) -> Bool {
        guard var p = scene.placement else { return false }
        change(&p)
        scene.placement = p
        return true
    }

    /// Mouse input on the scene (`PointerControl`).
    func pointer(_ event: SDL_Event) {
        pointer.handle(event, windowSize: window.windowSize, placement: viewport.placement, viewport: setup.viewport,
                       mouse: tracking.mouse, place: { place($0) })
    }

    // MARK: drops and the library's choice

    /// Starts loading `path` in the background; the current scene stays until it is ready.
    func open(_ path: String) {
        loads.open(path, screen: setup.screen.value, options: dropOptions)
        flash("LOADING \((path as NSString).lastPathComponent.uppercased())")
    }

    /// Starts building the shown capture's levels of detail in the background (it is drawn whole
    /// meanwhile); the result replaces it in place, keeping the placement.
    func startLevels(_ job: LevelOfDetailJob) { loads.startLevels(job) }

    /// Where a background load stands, once per frame: the new scene swapped in, or why it failed
    /// (returned, so the library can show it).
    func pollLoad() -> String? {
        switch loads.poll() {
        case nil: return nil
        case .loaded(let scene, let source, let path, let levelsOfDetail, let notes, let next):
            idle {
                if levelsOfDetail, let kept = driver.scene.placement { scene.placement = kept }
                driver.scene = scene
                stereo?.left.scene = scene
                stereo?.right.scene = scene
            }
            for n in notes { FileHandle.standardError.write(Data("splatframe: \(n)\n".utf8)) }
            if levelsOfDetail {
                flash("LEVELS OF DETAIL READY" + (notes.isEmpty ? "" : ": " + notes[0].uppercased()), seconds: notes.isEmpty ? 2.5 : 8)
                FileHandle.standardError.write(Data("splatframe: levels of detail ready for \(path)\n".utf8))
            } else {
                modelFile = source?.modelFile
                window.setTitle("SplatFrame - \(scene.name)")
                flash("OPENED \(path)".uppercased())
                FileHandle.standardError.write(Data("splatframe: opened \(path)\n".utf8))
            }
            if let next { startLevels(next) }
            return nil
        case .failed(let reason, _, let levelsOfDetail):
            if levelsOfDetail {
                flash("NO LEVELS OF DETAIL: \(reason)".uppercased(), seconds: 8)
                FileHandle.standardError.write(Data("splatframe: no levels of detail (drawn whole): \(reason)\n".utf8))
                return nil
            }
            flash("CANNOT OPEN: \(reason)".uppercased(), seconds: 8)
            FileHandle.standardError.write(Data("splatframe: cannot open dropped file: \(reason)\n".utf8))
            return reason
        }
    }

    // MARK: the frame

    /// Before each frame: the size to draw at, and the viewport — a true window shows the part of
    /// the physical screen behind the window's own rectangle, found again every frame
    /// (`WindowViewport`).
    func prepareFrame(size: (width: Int, height: Int)) {
        // The governor's render scale: fewer pixels drawn, stretched to the window when presented.
        let scale = async == nil ? governing.renderScale(for: scene) : 1
        frameSize = scale < 1 ? (max(1, Int(Double(size.width) * scale)), max(1, Int(Double(size.height) * scale))) : size
        viewport.update(window, setup: &setup)
        if async == nil {
            driver.resize(width: size.width, height: size.height)
            driver.setup = setup
        }
    }

    /// Renders frame `index` with the latest pose, draws the overlays (`help`: the key table),
    /// presents it, and feeds the prediction lead back to the tracker. Returns the render time (ms).
    func drawFrame(index: Int, help: Bool) throws -> Double {
        if let async { return try drawAsyncFrame(async, help: help) }
        if automaticReprojection { updateAutomaticReprojection() }
        let depthDrawn = driver.context.producesDepth
        governing.beforeFrame(scene)
        // The pose is read inside renderFrame, after event handling: as late as possible.
        let size = frameSize
        let record: FrameRecord
        if let stereo {
            stereo.setup = setup
            record = stereo.renderFrame(from: eyes, index: index, width: size.width, height: size.height)
        } else {
            // A still eye's long frame (the governor refining) is dropped the moment the head moves.
            driver.context.splats.abandonCheck = governing.abandonCheck(source: tracking.source)
            record = driver.renderFrame(from: eyes, index: index)
            driver.context.splats.abandonCheck = nil
            if record.stats.splat?.abandoned == true {
                governing.frameAbandoned()
                previousPresent = nil   // the next present-to-present time would count this frame too
                return record.renderMs   // nothing presented: the last frame stays on screen
            }
        }
        // The late latch: the newest predicted eye, read now, and the frame warped to it.
        var shownPose = record.view.pose
        latched = false
        if let reprojection, depthDrawn {
            let read = { (t: Double) in self.tracking.pose(at: t) }
            let late = stereo.map { reprojection.latch(record, stereo: $0, tracker: tracking.tracker, readPose: read, now: MonotonicClock.now()) }
                ?? reprojection.latch(record, driver: driver, tracker: tracking.tracker, readPose: read, now: { MonotonicClock.now() })
            if let late { shownPose = late; latched = true }
        }
        let pose = Self.shownPose(record)
        timing.frameComplete(pose: pose, at: record.complete, renderMs: record.renderMs)
        drawOverlays(stats: record.stats, pose: pose, help: help)
        text.endFrame()
        try window.present(framebuffer)
        let presented = MonotonicClock.now()
        // The governor holds the whole frame: present to present (events, overlays and the warp included).
        if let previous = previousPresent {
            governing.afterFrame(scene, eye: record.view.pose?.eye, renderMs: record.renderMs, frameMs: (presented - previous) * 1000, at: presented)
        }
        previousPresent = presented
        if let used = shownPose { tracking.presented(used, at: presented) }
        if latched { reprojection?.presented(at: presented) }
        // Prediction aims at when the next frame will be seen: the recent median of pose read → present.
        tracking.tracker.presentLead = timing.presented(at: presented, viewTime: record.viewTime, pose: record.view.pose)
        return record.renderMs
    }

    /// `--reproject auto`: the warp runs while the median frame takes more than 20 ms and stops
    /// below 12 ms. On the latency rig a 1M-splat capture drawn whole (17–23 fps) trailed a
    /// swaying head by 34 ms without the warp and 8.5 ms with it; the cube and the playbot at
    /// its budget (over 100 fps) gained nothing measurable, and there the warp (~3 ms) and the
    /// splats' depth (8–13 % of a frame) would only cost.
    private func updateAutomaticReprojection() {
        let ms = timing.medianFrameMs
        if !automaticLatching && ms > 20 { automaticLatching = true } else if automaticLatching && ms < 12 { automaticLatching = false }
        driver.context.producesDepth = automaticLatching
    }

    /// `--reproject async`: keeps the renderer busy, waits for the display's next refresh, then
    /// presents the newest finished frame warped to the eye read at that moment.
    private func drawAsyncFrame(_ async: AsyncPresentation, help: Bool) throws -> Double {
        async.waitForRefresh(eyes: eyes, tracker: tracking.tracker, setup: setup, width: frameSize.width, height: frameSize.height) { record, driver in
            self.asyncFigures = SceneFigures(driver.scene)
            self.timing.frameComplete(pose: Self.shownPose(record), at: record.complete, renderMs: record.renderMs)
            // The renderer is idle here: the governor learns from its frame and sets the next
            // one's budget before it is submitted.
            self.governing.afterRenderedFrame(driver.scene, eye: record.view.pose?.eye, renderMs: record.renderMs, at: record.complete)
            self.governing.beforeFrame(driver.scene)
        }
        let now = MonotonicClock.now()
        guard let late = async.latch.warpSource(setup: setup, width: frameSize.width, height: frameSize.height,
                                                tracker: tracking.tracker, readPose: { self.tracking.pose(at: $0) }, now: now) else {
            return 0   // no frame finished yet
        }
        drawOverlays(stats: async.shown?.stats ?? FrameStats(), pose: late, help: help)
        text.endFrame()
        try window.present(framebuffer)
        let presented = MonotonicClock.now()
        tracking.presented(late, at: presented)
        async.latch.presented(at: presented)
        _ = timing.presented(at: presented, viewTime: now, pose: late)
        return async.shown?.renderMs ?? 0
    }

    /// The pose `record` was drawn for; a camera view (no eye) counts as a lost head at rest.
    private static func shownPose(_ record: FrameRecord) -> HeadPose {
        record.view.pose ?? HeadPose(time: record.viewTime, position: Vec3d(0, 0, 0.6), state: .lost)
    }

    /// What is drawn over the scene: screenshots taken first (the scene alone), then the load's
    /// progress, the camera inset, the HUD and the key table.
    private func drawOverlays(stats: FrameStats, pose: HeadPose, help: Bool) {
        screenshots.takeIfRequested(framebuffer)
        if let m = screenshots.takeMessage() { flash(m.uppercased(), seconds: 5) }
        if let p = loads.progress {
            SceneDropLoader.drawProgress(p.fraction, label: p.levelsOfDetail ? "Building levels of detail for" : "Loading",
                                         name: (p.path as NSString).lastPathComponent, detail: p.detail, into: framebuffer, text: text)
        }
        if showCamera, let camera = tracking.source as? CameraTrackingSource, let preview = camera.cameraPreview() {
            CameraInset.draw(preview, into: framebuffer, text: text)
        }
        if let m = calibration.poll(tracking) { flash(m, seconds: 6) }
        if showHUD {
            SceneHUD(screen: self, stats: stats, pose: pose, latency: timing.latencySummary).draw(into: framebuffer, text: text)
        }
        if help { TextPanel.draw(["Keys and mouse"] + KeyBindings.rows.map { "\($0.keys):  \($0.action)" }, into: framebuffer, text: text) }
    }

    /// Once a second: the latency summary and the title's frame rate.
    func refreshSummary() {
        timing.refresh()
        window.setTitle("SplatFrame - \(sceneFigures.name) - \(String(format: "%.0f", 1000 / medianFrameMs)) fps")
    }

    // MARK: webcam calibration (`k`)

    /// Sit centred 0.6 m from the camera for three seconds; the fitted IPD is applied and saved.
    private func startWebcamCalibration() {
        let r = calibration.start(tracking)
        if r.started { showCamera = true }
        flash(r.message, seconds: r.seconds)
    }
}
