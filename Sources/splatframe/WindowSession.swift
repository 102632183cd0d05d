import CSDL2
import Foundation
import HeadTracking
import Procedural
import RenderCore
import Settings
import Viewer

/// The interactive loop: events → head pose → off-axis camera → scene → window, continuously.
///
/// Head: the pose comes from the tracking session once per frame (never blocking); with the
/// mouse source, the cursor moves the eye in x/y and the wheel in z.
/// Keys: Esc/q quit, F11/f fullscreen, h HUD, c camera inset (webcam sources), k calibrate the
/// webcam (sit centred 0.6 m away for 3 s; the IPD is saved to the config file). For model
/// files: left-drag or arrow keys orbit, right-drag pans, +/− (or Ctrl+wheel) zoom, u cycles
/// the up axis, 0 resets, s saves the placement next to the file.
final class WindowSession {
    let window: SDLWindow
    let driver: FrameDriver
    let tracking: HeadTrackingSession
    let eyes: LiveEyeSource
    var modelFile: String?
    /// `--stats-every S`: a line of frame-time and memory figures on stderr every S seconds.
    let statsEvery: Double?
    var scene: Scene { driver.scene }
    /// Stereo (`--stereo`): two eyes composed into its own output.
    var stereo: StereoRenderer?
    var framebuffer: Framebuffer { stereo?.output ?? driver.framebuffer }

    private var showHUD = true
    /// `c`: the camera inset (camera sources only).
    private var showCamera = false
    /// `?`/F1: the help overlay.
    private var showHelp = false
    /// F2: screen calibration with a bank card, while active.
    private var cardCalibration: CardCalibration?
    /// F12 pressed: save the next frame before the HUD is drawn.
    private var screenshotRequested = false
    /// Messages from background work (screenshots), shown by the frame loop.
    private let pendingMessages = MessageBox()
    /// A dropped file loading in the background.
    private var dropLoader: SceneDropLoader?
    /// Options for scenes opened by a drop (the command's model options).
    var dropOptions = SceneLoader.ModelOptions()
    /// Tests: push an SDL drop event for this path at this frame (`--test-drop FRAME:PATH`).
    var testDrop: (frame: Int, path: String)?
    /// `splatframe calibrate`: the window exists only to calibrate; it closes after saving.
    var calibrationOnly = false
    /// `l`: the scene library's grid, drawn instead of the scene while `showingLibrary`.
    var library: LibraryView?
    private var showingLibrary = false
    /// `splatframe library`: the grid is the home screen (Esc there quits); after `l`, Esc there returns to the scene.
    var libraryIsHome = false
    /// The scene was opened from the grid: Esc goes back to it (q still quits).
    private var openedFromLibrary = false
    /// HUD, help and overlay text (DejaVu through SDL2_ttf, else the bitmap font).
    let text = WindowText()
    /// Where `k` (calibrate) saves the fitted IPD.
    var configPath: String?
    /// Pose publish → frame complete / presented, over the last 120 frames.
    private let latency = LatencyMeter()
    private var latencySummary: LatencyMeter.Summary?
    private var frameTimes: [Double] = []
    /// Pose read → present, seconds, last 30 frames.
    private var leads: [Double] = []
    private var dragging: UInt8 = 0
    private var message: (text: String, until: Double)?

    init(window: SDLWindow, driver: FrameDriver, tracking: HeadTrackingSession, modelFile: String?, statsEvery: Double? = nil,
         notices: [String] = []) {
        self.window = window; self.driver = driver
        self.tracking = tracking; self.modelFile = modelFile; self.statsEvery = statsEvery
        eyes = LiveEyeSource(session: tracking)
        var all = notices
        if !text.isTrueType { all.append("HUD text: \(text.origin)") }
        for n in all where !notices.contains(n) { FileHandle.standardError.write(Data("splatframe: \(n)\n".utf8)) }
        if !all.isEmpty { message = (all.joined(separator: "  "), MonotonicClock.now() + 8) }
    }

    /// Runs until the user quits; `maxFrames` (for tests) stops earlier.
    func run(maxFrames: Int? = nil) throws {
        var running = true
        var frames = 0
        var lastTitle = MonotonicClock.now()
        let stats = statsEvery.map { SoakStats(every: $0) }
        while running {
            var event = SDL_Event()
            while SDL_PollEvent(&event) != 0 {
                if !handle(event) { running = false }
            }
            if let d = testDrop, d.frame == frames { pushDrop(d.path) }
            let size = window.drawableSize
            driver.resize(width: size.width, height: size.height)
            updateViewport()
            pollDrop()
            if showingLibrary, let library {
                driver.framebuffer.resize(width: size.width, height: size.height)
                library.draw(into: driver.framebuffer, text: text)
                text.endFrame()
                try window.present(driver.framebuffer)
                frames += 1
                if let maxFrames, frames >= maxFrames { running = false }
                SDL_Delay(15)   // the grid needs no more than ~60 fps
                continue
            }
            if let card = cardCalibration {
                // Calibration shows only the card outline, on the whole display.
                driver.framebuffer.resize(width: size.width, height: size.height)
                card.draw(into: driver.framebuffer, text: text)
                if let m = message, MonotonicClock.now() < m.until {
                    text.draw(m.text, x: 8, y: size.height - text.lineHeight - 4, into: driver.framebuffer)
                }
                text.endFrame()
                try window.present(driver.framebuffer)
                frames += 1
                if let maxFrames, frames >= maxFrames { running = false }
                continue
            }
            // The pose is read inside renderFrame, after event handling: as late as possible.
            let record: FrameRecord
            if let stereo {
                stereo.setup = driver.setup
                record = stereo.renderFrame(from: eyes, index: frames, width: size.width, height: size.height)
            } else {
                record = driver.renderFrame(from: eyes, index: frames)
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
            if case .loading(let fraction)? = dropLoader?.state() {
                SceneDropLoader.drawProgress(fraction, name: (dropLoader!.path as NSString).lastPathComponent, into: framebuffer, text: text)
            }
            if showCamera, let camera = tracking.source as? CameraTrackingSource, let preview = camera.cameraPreview() {
                CameraInset.draw(preview, into: framebuffer, text: text)
            }
            pollCalibration()
            if showHUD { drawHUD(stats: record.stats, pose: pose) }
            if showHelp { TextPanel.draw(["Keys and mouse"] + WindowControls.all.map { "\($0.keys):  \($0.action)" }, into: framebuffer, text: text) }
            text.endFrame()
            try window.present(framebuffer)
            let presented = MonotonicClock.now()
            _ = latency.presented(at: presented)
            // Prediction aims at when the next frame will be seen: the recent median of pose read → present.
            leads.append(presented - record.viewTime)
            if leads.count > 30 { leads.removeFirst() }
            tracking.tracker.presentLead = leads.sorted()[leads.count / 2]
            frames += 1
            stats?.frame(ms: record.renderMs)
            if let maxFrames, frames >= maxFrames { running = false }
            let now = MonotonicClock.now()
            if now - lastTitle > 1 {
                latencySummary = latency.summary()
                window.setTitle("SplatFrame — \(scene.name) — \(String(format: "%.0f", 1000 / median(frameTimes))) fps")
                lastTitle = now
            }
        }
    }

    /// Handles one event; false means quit.
    private func handle(_ event: SDL_Event) -> Bool {
        if showingLibrary, let library { return handleLibrary(library.handle(event, window: window)) }
        let placeable = scene.placement != nil
        switch SDL_EventType(rawValue: event.type) {
        case SDL_QUIT:
            return false
        case SDL_DROPFILE:
            if let file = event.drop.file {
                let path = String(cString: file)
                SDL_free(file)
                startDrop(path)
            }
        case SDL_KEYDOWN:
            let key = event.key.keysym.sym
            func isChar(_ c: Character) -> Bool { key == Int32(c.asciiValue!) }
            let shift = SDL_GetModState().rawValue & KMOD_SHIFT.rawValue != 0
            if cardCalibration != nil { return handleCalibrationKey(key, shift: shift) }
            if key == SDLK_ESCAPE.rawValue && showHelp { showHelp = false; return true }
            if isChar("l") || (key == SDLK_ESCAPE.rawValue && openedFromLibrary) { showLibrary(); return true }
            if key == SDLK_ESCAPE.rawValue || isChar("q") { return false }
            if key == SDLK_F1.rawValue || key == SDLK_QUESTION.rawValue || (isChar("/") && shift) { showHelp.toggle() }
            if key == SDLK_F12.rawValue { screenshotRequested = true }
            if key == SDLK_F2.rawValue { startCardCalibration() }
            if key == SDLK_F11.rawValue || isChar("f") { window.toggleFullscreen() }
            if isChar("h") { showHUD.toggle() }
            if isChar("c") {
                if tracking.source is CameraTrackingSource { showCamera.toggle() } else { flash("NO CAMERA: THE HEAD SOURCE IS \(tracking.source.name.uppercased())") }
            }
            if isChar("k") { startCalibration() }
            guard var p = scene.placement else { return true }
            defer { scene.placement = p }
            let step: Float = .pi / 36
            if key == SDLK_LEFT.rawValue { p.yaw -= step }
            if key == SDLK_RIGHT.rawValue { p.yaw += step }
            if key == SDLK_UP.rawValue { p.pitch -= step }
            if key == SDLK_DOWN.rawValue { p.pitch += step }
            if isChar("=") || isChar("+") || key == SDLK_KP_PLUS.rawValue { p.zoom *= 1.1 }
            if isChar("-") || key == SDLK_KP_MINUS.rawValue { p.zoom /= 1.1 }
            if isChar("u") {
                p.up = p.up.next
                flash("UP AXIS \(p.up.rawValue.uppercased())")
            }
            if isChar("0") { p = Placement(up: p.up); flash("PLACEMENT RESET") }
            if isChar("s"), let file = modelFile {
                do {
                    try p.save(sidecarFor: file)
                    flash("SAVED \(Placement.sidecarPath(for: file))")
                } catch { flash("\(error)") }
            }
        case SDL_MOUSEMOTION:
            let size = window.windowSize
            if dragging != 0, var p = scene.placement {
                let dx = Float(event.motion.xrel), dy = Float(event.motion.yrel)
                if dragging == UInt8(SDL_BUTTON_LEFT) {
                    p.yaw += dx * 0.01
                    p.pitch += dy * 0.01
                } else {
                    let v = driver.setup.viewport
                    p.pan[0] += dx / Float(size.width) * v.width
                    p.pan[1] -= dy / Float(size.height) * v.height
                }
                scene.placement = p
            } else {
                // The eye goes over the cursor's place on the display (the window is a part of it).
                let p = placement ?? WindowPlacement(windowX: 0, windowY: 0, windowWidth: size.width, windowHeight: size.height,
                                                     displayX: 0, displayY: 0, displayWidth: size.width, displayHeight: size.height)
                tracking.mouse?.update(
                    normalizedX: (Double(p.windowX - p.displayX) + Double(event.motion.x) + 0.5) / Double(max(1, p.displayWidth)),
                    normalizedY: (Double(p.windowY - p.displayY) + Double(event.motion.y) + 0.5) / Double(max(1, p.displayHeight)))
            }
        case SDL_MOUSEBUTTONDOWN:
            if placeable { dragging = event.button.button }
        case SDL_MOUSEBUTTONUP:
            dragging = 0
        case SDL_MOUSEWHEEL where cardCalibration != nil:
            cardCalibration?.resize(steps: Double(event.wheel.y), fine: SDL_GetModState().rawValue & KMOD_SHIFT.rawValue != 0)
        case SDL_MOUSEWHEEL:
            let ctrl = SDL_GetModState().rawValue & KMOD_CTRL.rawValue != 0
            if var p = scene.placement, ctrl || tracking.mouse == nil {
                p.zoom *= powf(1.1, Float(event.wheel.y))
                scene.placement = p
            } else {
                tracking.mouse?.scroll(delta: Double(event.wheel.y))
            }
        default:
            break
        }
        return true
    }

    // MARK: screen calibration (F2, `splatframe calibrate`)

    func startCardCalibration() {
        let p = placement ?? window.placement()
        cardCalibration = CardCalibration(screen: driver.setup.screen.value, displayWidth: p?.displayWidth ?? window.windowSize.width,
                                          displayHeight: p?.displayHeight ?? window.windowSize.height)
        if !window.isFullscreen { window.toggleFullscreen() }
        showHelp = false
    }

    private func handleCalibrationKey(_ key: Int32, shift: Bool) -> Bool {
        if key == SDLK_UP.rawValue || key == SDLK_RIGHT.rawValue { cardCalibration?.resize(steps: 1, fine: shift) }
        if key == SDLK_DOWN.rawValue || key == SDLK_LEFT.rawValue { cardCalibration?.resize(steps: -1, fine: shift) }
        if key == SDLK_ESCAPE.rawValue {
            cardCalibration = nil
            if calibrationOnly { return false }
            flash("SCREEN CALIBRATION CANCELLED")
        }
        if key == SDLK_RETURN.rawValue || key == SDLK_KP_ENTER.rawValue, let card = cardCalibration {
            let mm = card.screenMM
            let w = (mm.width * 10).rounded() / 10, h = (mm.height * 10).rounded() / 10
            guard let configPath else { flash("NO CONFIG FILE TO SAVE TO"); return true }
            do {
                try ConfigFile.update(path: configPath, ["screenWidthMM": w, "screenHeightMM": h])
                FileHandle.standardError.write(Data("splatframe: saved screen \(w)x\(h) mm to \(configPath)\n".utf8))
                driver.setup.screen = Resolved(ScreenGeometry(width: Float(w / 1000), height: Float(h / 1000)), .configFile)
                cardCalibration = nil
                flash("SCREEN \(w) X \(h) MM SAVED TO \(configPath)".uppercased(), seconds: 6)
                if calibrationOnly { return false }
            } catch { flash("NOT SAVED: \(error)".uppercased(), seconds: 6) }
        }
        return true
    }

    // MARK: drag and drop

    private func startDrop(_ path: String) {
        dropLoader = SceneDropLoader(path: path, screen: driver.setup.screen.value, options: dropOptions)
        flash("LOADING \((path as NSString).lastPathComponent.uppercased())")
    }

    private func pollDrop() {
        guard let loader = dropLoader else { return }
        switch loader.state() {
        case .loading: return
        case .loaded(let scene):
            driver.scene = scene
            stereo?.left.scene = scene
            stereo?.right.scene = scene
            modelFile = SceneSource.isSceneDescription(loader.path) ? nil : loader.path
            window.setTitle("SplatFrame — \(scene.name)")
            flash("OPENED \(loader.path)".uppercased())
            FileHandle.standardError.write(Data("splatframe: opened \(loader.path)\n".utf8))
        case .failed(let reason):
            flash("CANNOT OPEN: \(reason)".uppercased(), seconds: 8)
            FileHandle.standardError.write(Data("splatframe: cannot open dropped file: \(reason)\n".utf8))
            if openedFromLibrary { library?.flash("Cannot open: \(reason)"); showLibrary() }
        }
        dropLoader = nil
    }

    // MARK: scene library (`l`, `splatframe library`)

    /// Shows the grid (made on first use from the default folders).
    func showLibrary() {
        if library == nil { library = LibraryView.start(threads: driver.context.threads) }
        library?.activate()
        showingLibrary = true
        showHelp = false
    }

    private func handleLibrary(_ action: LibraryView.Action) -> Bool {
        switch action {
        case .none: return true
        case .quit: return false
        case .back:
            if libraryIsHome { return false }
        case .open(let path):
            openedFromLibrary = true
            startDrop(path)
        }
        showingLibrary = false
        library?.deactivate()
        return true
    }

    /// Pushes a drop event into SDL's own queue (tests: the same path a real drop takes).
    private func pushDrop(_ path: String) {
        var e = SDL_Event()
        e.type = SDL_DROPFILE.rawValue
        e.drop.file = SDL_strdup(path)
        e.drop.windowID = 0
        SDL_PushEvent(&e)
    }

    /// The display the set-up's screen size describes (where the window opened).
    private var homeDisplay: Int?
    private var placement: WindowPlacement?

    /// A true window: the framebuffer shows the part of the physical screen behind the
    /// window's own rectangle, found again every frame (moves, resizes, other displays).
    private func updateViewport() {
        guard let p = window.placement() else { return }
        if homeDisplay == nil { homeDisplay = p.display }
        placement = p
        let screen = p.display == homeDisplay ? driver.setup.screen.value
            : (window.physicalSize(display: Int32(p.display)) ?? driver.setup.screen.value)
        driver.setup.viewport = p.viewport(on: screen)
    }

    private func flash(_ text: String, seconds: Double = 2.5) { message = (text, MonotonicClock.now() + seconds) }

    /// `k`: sit centred 0.6 m from the camera for three seconds; the fitted IPD is applied and
    /// saved to the config file.
    private func startCalibration() {
        guard let camera = tracking.source as? CameraTrackingSource else {
            flash("CALIBRATION NEEDS A WEBCAM HEAD SOURCE"); return
        }
        camera.beginCalibration(distance: 0.6, seconds: 3)
        showCamera = true
        flash("CALIBRATING: SIT CENTRED, EYES 0.60 M FROM THE CAMERA, FOR 3 S", seconds: 3.5)
    }

    private func pollCalibration() {
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

    private func median(_ v: [Double]) -> Double {
        guard !v.isEmpty else { return 1 }
        let s = v.sorted()
        return max(0.001, s[s.count / 2])
    }

    private func drawHUD(stats: FrameStats, pose: HeadPose) {
        let e = pose.eye
        let s = driver.setup.screen.value
        var lines = [
            String(format: "%.1f ms  %.0f fps  %d×%d  %d threads", median(frameTimes), 1000 / median(frameTimes),
                   framebuffer.width, framebuffer.height, driver.context.threads),
            String(format: "head %@ %@  eye %+.3f %+.3f %+.3f m", tracking.source.name, pose.state.rawValue, e.x, e.y, e.z)
                + (latencySummary.flatMap { $0.frames > 0 ? $0 : nil }.map {
                    String(format: "  latency %.1f ms to frame, %.1f ms to screen", $0.completeMedianMs, $0.presentedMedianMs)
                } ?? ""),
            String(format: "screen %.3f×%.3f m  %@  %d %@", s.width, s.height, scene.name, scene.primitiveCount, scene.primitiveKind.rawValue),
        ]
        if let status = tracking.source.statusSummary { lines.append(status) }
        if let status = scene.statusLine { lines.append(status) }
        if !stats.stages.isEmpty {
            lines.append(stats.stages.map { String(format: "%@ %.1f", $0.name, $0.ms) }.joined(separator: "  ") + " ms")
        } else if stats.raster.trianglesIn > 0 {
            lines.append(String(format: "setup %.1f  raster %.1f ms", stats.raster.setupMs, stats.raster.rasterMs))
        }
        lines.append("? or F1: keys and mouse   h: hide HUD   q: quit")
        if let m = message, MonotonicClock.now() < m.until { lines.append(m.text) }
        if let stereo { lines.append("stereo \(stereo.mode.description)  IPD \(Int((stereo.ipd * 1000).rounded())) mm") }
        // Side by side: the same text at the same place in both halves, so it sits at zero parallax.
        var offsets = [0]
        var maxWidth = framebuffer.width - 12
        if case .sideBySide = stereo?.mode {
            offsets = [0, framebuffer.width / 2]
            maxWidth = framebuffer.width / 2 - 12
        }
        for (i, line) in lines.enumerated() {
            let y = 6 + i * text.lineHeight
            for x0 in offsets { text.draw(line, x: x0 + 6, y: y, into: framebuffer, maxWidth: maxWidth) }
        }
    }
}
