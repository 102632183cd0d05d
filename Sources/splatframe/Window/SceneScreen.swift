// SceneScreen — the scene through the window: each frame reads the head pose, renders through
// the off-axis frustum (mono or stereo), overlays the HUD, camera inset, help and messages, and
// presents. Model placement, the mouse head source, drops, screenshots and webcam calibration
// act on it.
import CSDL2
import Foundation
import HeadTracking
import RenderCore
import Settings
import Viewer

/// The scene screen's state. Frame loop only (not thread-safe).
final class SceneScreen {
    let window: SDLWindow
    let driver: FrameDriver
    let tracking: HeadTrackingSession
    let eyes: LiveEyeSource
    /// `--stereo`: two eyes composed into its own output.
    let stereo: StereoRenderer?
    let text: WindowText
    /// Where `k` (webcam) saves the fitted IPD.
    let configPath: String?
    /// Options for scenes opened by a drop or the library.
    let dropOptions: SceneLoader.ModelOptions
    /// The user's file the shown model came from (placement saved beside it), if any.
    private(set) var modelFile: String?

    var scene: Scene { driver.scene }
    var framebuffer: Framebuffer { stereo?.output ?? driver.framebuffer }

    private(set) var showHUD = true
    private var showCamera = false
    private var screenshotRequested = false
    /// Messages from background work (screenshots), shown by the frame loop.
    private let pendingMessages = MessageBox()
    /// A dropped file (or the library's choice) loading in the background.
    private(set) var dropLoader: SceneDropLoader?
    /// Pose publish → frame complete / presented, over the last 120 frames.
    private let latency = LatencyMeter()
    private var latencySummary: LatencyMeter.Summary?
    private(set) var frameTimes: [Double] = []
    /// Pose read → present, seconds, last 30 frames.
    private var leads: [Double] = []
    private var dragging: UInt8 = 0
    private var message: (text: String, until: Double)?
    /// The display the set-up's screen size describes (where the window opened), and the
    /// window's place on it.
    private var homeDisplay: Int?
    private(set) var placement: WindowPlacement?

    init(window: SDLWindow, driver: FrameDriver, tracking: HeadTrackingSession, stereo: StereoRenderer?, text: WindowText,
         modelFile: String?, configPath: String?, dropOptions: SceneLoader.ModelOptions) {
        self.window = window; self.driver = driver; self.tracking = tracking; self.stereo = stereo; self.text = text
        self.modelFile = modelFile; self.configPath = configPath; self.dropOptions = dropOptions
        eyes = LiveEyeSource(session: tracking)
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
        case .screenshot: screenshotRequested = true
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
        case .savePlacement:
            guard let p = scene.placement, let file = modelFile else { return }
            do {
                try p.save(sidecarFor: file)
                flash("SAVED \(Placement.sidecarPath(for: file))")
            } catch { flash("\(error)") }
        default: break
        }
    }

    private func place(_ change: (inout Placement) -> Void) {
        guard var p = scene.placement else { return }
        change(&p)
        scene.placement = p
    }

    /// Mouse input on the scene: drag orbits (right-drag pans) a model; otherwise the cursor moves
    /// the eye (mouse head source); the wheel moves the eye in z, or zooms a model (Ctrl, or
    /// without the mouse source).
    func pointer(_ event: SDL_Event) {
        switch SDL_EventType(rawValue: event.type) {
        case SDL_MOUSEMOTION:
            let size = window.windowSize
            if dragging != 0, scene.placement != nil {
                let dx = Float(event.motion.xrel), dy = Float(event.motion.yrel)
                if dragging == UInt8(SDL_BUTTON_LEFT) {
                    place { $0.yaw += dx * 0.01; $0.pitch += dy * 0.01 }
                } else {
                    let v = driver.setup.viewport
                    place { $0.pan[0] += dx / Float(size.width) * v.width; $0.pan[1] -= dy / Float(size.height) * v.height }
                }
            } else {
                // The eye goes over the cursor's place on the display (the window is a part of it).
                let p = placement ?? WindowPlacement(windowX: 0, windowY: 0, windowWidth: size.width, windowHeight: size.height,
                                                     displayX: 0, displayY: 0, displayWidth: size.width, displayHeight: size.height)
                tracking.mouse?.update(
                    normalizedX: (Double(p.windowX - p.displayX) + Double(event.motion.x) + 0.5) / Double(max(1, p.displayWidth)),
                    normalizedY: (Double(p.windowY - p.displayY) + Double(event.motion.y) + 0.5) / Double(max(1, p.displayHeight)))
            }
        case SDL_MOUSEBUTTONDOWN:
            if scene.placement != nil { dragging = event.button.button }
        case SDL_MOUSEBUTTONUP:
            dragging = 0
        case SDL_MOUSEWHEEL:
            let ctrl = SDL_GetModState().rawValue & KMOD_CTRL.rawValue != 0
            if scene.placement != nil, ctrl || tracking.mouse == nil {
                place { $0.zoom *= powf(1.1, Float(event.wheel.y)) }
            } else {
                tracking.mouse?.scroll(delta: Double(event.wheel.y))
            }
        default:
            break
        }
    }

    // MARK: drops and the library's choice

    /// Starts loading `path` in the background; the current scene stays until it is ready.
    func open(_ path: String) {
        dropLoader = SceneDropLoader(path: path, screen: driver.setup.screen.value, options: dropOptions)
        flash("LOADING \((path as NSString).lastPathComponent.uppercased())")
    }

    /// Starts building the shown capture's levels of detail in the background (it is drawn whole
    /// meanwhile); the result replaces it in place, keeping the placement.
    func startLevels(_ job: LevelOfDetailJob) {
        dropLoader = SceneDropLoader(levelsOf: job)
        FileHandle.standardError.write(Data("splatframe: building levels of detail for \(job.name) (drawn whole until they are ready)\n".utf8))
    }

    /// Where a background load stands, once per frame: the new scene swapped in, or why it failed
    /// (returned, so the library can show it).
    func pollLoad() -> String? {
        guard let loader = dropLoader else { return nil }
        var failure: String?
        var next: LevelOfDetailJob?
        switch loader.state() {
        case .loading: return nil
        case .loaded(let scene, let source, let job, let notes):
            if loader.isLevelOfDetail, let kept = driver.scene.placement { scene.placement = kept }
            driver.scene = scene
            stereo?.left.scene = scene
            stereo?.right.scene = scene
            for n in notes { FileHandle.standardError.write(Data("splatframe: \(n)\n".utf8)) }
            if loader.isLevelOfDetail {
                flash("LEVELS OF DETAIL READY" + (notes.isEmpty ? "" : ": " + notes[0].uppercased()), seconds: notes.isEmpty ? 2.5 : 8)
                FileHandle.standardError.write(Data("splatframe: levels of detail ready for \(loader.path)\n".utf8))
            } else {
                modelFile = source?.modelFile
                window.setTitle("SplatFrame - \(scene.name)")
                flash("OPENED \(loader.path)".uppercased())
                FileHandle.standardError.write(Data("splatframe: opened \(loader.path)\n".utf8))
            }
            next = job
        case .failed(let reason):
            if loader.isLevelOfDetail {
                flash("NO LEVELS OF DETAIL: \(reason)".uppercased(), seconds: 8)
                FileHandle.standardError.write(Data("splatframe: no levels of detail (drawn whole): \(reason)\n".utf8))
            } else {
                flash("CANNOT OPEN: \(reason)".uppercased(), seconds: 8)
                FileHandle.standardError.write(Data("splatframe: cannot open dropped file: \(reason)\n".utf8))
                failure = reason
            }
        }
        dropLoader = nil
        if let next { startLevels(next) }
        return failure
    }

    // MARK: the frame

    /// A true window: the framebuffer shows the part of the physical screen behind the window's
    /// own rectangle, found again every frame (moves, resizes, other displays).
    func updateViewport() {
        guard let p = window.placement() else { return }
        if homeDisplay == nil { homeDisplay = p.display }
        placement = p
        let screen = p.display == homeDisplay ? driver.setup.screen.value
            : (window.physicalSize(display: Int32(p.display)) ?? driver.setup.screen.value)
        driver.setup.viewport = p.viewport(on: screen)
    }

    /// Renders frame `index` with the latest pose, draws the overlays (`help`: the key table),
    /// presents it, and feeds the prediction lead back to the tracker. Returns the render time (ms).
    func drawFrame(index: Int, help: Bool) throws -> Double {
        // The pose is read inside renderFrame, after event handling: as late as possible.
        let size = window.drawableSize
        let record: FrameRecord
        if let stereo {
            stereo.setup = driver.setup
            record = stereo.renderFrame(from: eyes, index: index, width: size.width, height: size.height)
        } else {
            record = driver.renderFrame(from: eyes, index: index)
        }
        let pose = record.view.pose ?? HeadPose(time: record.viewTime, position: Vec3d(0, 0, 0.6), state: .lost)
        _ = latency.frameComplete(pose: pose, at: record.complete)
        frameTimes.append(record.renderMs)
        if frameTimes.count > 120 { frameTimes.removeFirst(frameTimes.count - 120) }
        if screenshotRequested {
            screenshotRequested = false
            let box = pendingMessages
            ScreenshotWriter.save(framebuffer.image()) { result in
                switch result {
                case .success(let path): box.post("SCREENSHOT SAVED: \(path)")
                case .failure(let e): box.post("SCREENSHOT FAILED: \(e)")
                }
            }
        }
        if let m = pendingMessages.take() { flash(m.uppercased(), seconds: 5) }
        if let loader = dropLoader, case .loading(let fraction) = loader.state() {
            SceneDropLoader.drawProgress(fraction, label: loader.isLevelOfDetail ? "Building levels of detail for" : "Loading",
                                         name: (loader.path as NSString).lastPathComponent, into: framebuffer, text: text)
        }
        if showCamera, let camera = tracking.source as? CameraTrackingSource, let preview = camera.cameraPreview() {
            CameraInset.draw(preview, into: framebuffer, text: text)
        }
        pollWebcamCalibration()
        if showHUD {
            SceneHUD(screen: self, stats: record.stats, pose: pose, latency: latencySummary).draw(into: framebuffer, text: text)
        }
        if help { TextPanel.draw(["Keys and mouse"] + KeyBindings.rows.map { "\($0.keys):  \($0.action)" }, into: framebuffer, text: text) }
        text.endFrame()
        try window.present(framebuffer)
        let presented = MonotonicClock.now()
        _ = latency.presented(at: presented)
        // Prediction aims at when the next frame will be seen: the recent median of pose read → present.
        leads.append(presented - record.viewTime)
        if leads.count > 30 { leads.removeFirst() }
        tracking.tracker.presentLead = leads.sorted()[leads.count / 2]
        return record.renderMs
    }

    /// Once a second: the latency summary and the title's frame rate.
    func refreshSummary() {
        latencySummary = latency.summary()
        window.setTitle("SplatFrame - \(scene.name) - \(String(format: "%.0f", 1000 / medianFrameMs)) fps")
    }

    /// Median render time of the last 120 frames (ms; 1 before any).
    var medianFrameMs: Double {
        guard !frameTimes.isEmpty else { return 1 }
        let s = frameTimes.sorted()
        return max(0.001, s[s.count / 2])
    }

    // MARK: webcam calibration (`k`)

    /// Sit centred 0.6 m from the camera for three seconds; the fitted IPD is applied and saved.
    private func startWebcamCalibration() {
        guard let camera = tracking.source as? CameraTrackingSource else {
            flash("CALIBRATION NEEDS A WEBCAM HEAD SOURCE"); return
        }
        camera.beginCalibration(distance: 0.6, seconds: 3)
        showCamera = true
        flash("CALIBRATING: SIT CENTRED, EYES 0.60 M FROM THE CAMERA, FOR 3 S", seconds: 3.5)
    }

    private func pollWebcamCalibration() {
        guard let camera = tracking.source as? CameraTrackingSource, let result = camera.takeCalibrationResult() else { return }
        switch result {
        case .success(let r):
            var saved = ""
            if let configPath {
                do { try ConfigFile.update(path: configPath, [r.key: r.value]); saved = " SAVED TO \(configPath)" } catch { saved = " NOT SAVED: \(error)" }
            }
            flash("CALIBRATED: \(r.summary)\(saved)".uppercased(), seconds: 6)
        case .failure(let e):
            flash("CALIBRATION FAILED: \(e)".uppercased(), seconds: 6)
        }
    }
}
