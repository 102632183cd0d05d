import Foundation
import HeadTracking
import LatencyRig
import WebcamTracking
import Procedural
import Settings
import RenderCore
import Viewer

/// Opens the window, resolves the screen and head tracking, builds the scene, runs the loop.
enum WindowLauncher {
    static func run(windowOptions: WindowOptions, screenOptions: ScreenOptions, configOption: ConfigOption, head: HeadTrackingOptions,
                    modelFile: String?, dropOptions: SceneLoader.ModelOptions = SceneLoader.ModelOptions(),
                    calibrationOnly: Bool = false, library: LibraryView? = nil,
                    levelsJob: () -> LevelOfDetailJob? = { nil },
                    makeScene: (ScreenGeometry, _ progress: @escaping (Int, Int) -> Void) throws -> Scene) throws {
        let size = windowOptions.size.value
        let threads = windowOptions.threads.count
        let screenFlag = screenOptions.flag()
        let headOptions = head
        let config = try configOption.interactive(creating: calibrationOnly)
        let window = try SDLWindow(title: "SplatFrame", width: size.width, height: size.height, fullscreen: windowOptions.fullscreen)
        let setup = ViewingSetup.resolve(screenFlag: screenFlag, movementScaleFlag: headOptions.movementScale,
                                         config: config.file, display: window.physicalDisplaySize())
        var notices: [String] = []
        if !window.knowsPosition { notices.append(WindowPlacement.positionUnknownNotice) }
        let session = try startTracking(options: headOptions, config: config, setup: setup) { notices.append($0) }
        FileHandle.standardError.write(Data("splatframe: \(setup.screenDescription), head \(session.source.name)\n".utf8))
        for n in notices { FileHandle.standardError.write(Data("splatframe: \(n)\n".utf8)) }
        let progress = LoadingScreen(window: window)
        let scene = try makeScene(setup.screen.value) { done, total in progress.show(done: done, total: total) }
        defer { session.stop() }
        // The warp needs every frame's depth (splats too).
        let reprojects = windowOptions.reproject != .off
        // `auto` turns depth on only while it warps (SceneScreen).
        let driver = FrameDriver(scene: scene, setup: setup,
                                 context: RenderContext(threads: threads, producesDepth: reprojects && windowOptions.reproject != .auto),
                                 width: window.drawableSize.width, height: window.drawableSize.height)
        let stereo = windowOptions.stereo.resolved.map { mode, ipd in
            StereoRenderer(mode: mode, ipd: ipd, scene: scene, setup: setup, context: driver.context,
                           width: window.drawableSize.width, height: window.drawableSize.height)
        }
        if windowOptions.reproject == .async, stereo != nil {
            FileHandle.standardError.write(Data("splatframe: --reproject async draws one view; with --stereo each pair is warped when presented (as --reproject on)\n".utf8))
        }
        let screen = SceneScreen(window: window, driver: driver, tracking: session, stereo: stereo, text: WindowText(),
                                 modelFile: modelFile, configPath: config.path, dropOptions: dropOptions,
                                 reprojection: reprojects ? LateLatch(threads: threads) : nil,
                                 asynchronous: windowOptions.reproject == .async, automatic: windowOptions.reproject == .auto,
                                 targetFps: windowOptions.targetFps ?? config.file?.targetFps
                                    ?? (windowOptions.reproject == .async && stereo == nil
                                        ? WindowGovernor.asyncTargetFps(refreshRate: window.refreshRate()) : min(60, window.refreshRate())))
        if let job = levelsJob() { screen.startLevels(job) }
        let loop = WindowLoop(scene: screen, configuration: WindowConfiguration(
            maxFrames: windowOptions.frames, statsEvery: windowOptions.statsEvery, testDrop: windowOptions.testDrop,
            library: library, libraryIsHome: library != nil, calibrationOnly: calibrationOnly, configPath: config.path,
            notices: notices))
        try loop.run()
        if let e = session.recordError { throw e }
    }
}

extension WindowLauncher {
    /// Builds and starts the head source. With no source asked for (no flag, no config `head`)
    /// a camera that is present is used; when there is none, or it cannot be opened, the mouse
    /// is, with a notice. A source the user asked for explicitly must work (else the one-line
    /// error). `notice` hears every fall-back.
    static func startTracking(options: HeadTrackingOptions, config: (file: ConfigFile?, path: String), setup: ViewingSetup,
                              notice: @escaping (String) -> Void) throws -> HeadTrackingSession {
        let camera = WebcamSourceFactory.maker(config: config.file, prefer: options.detector.flatMap(DetectorBackend.init(name:)),
                                               notice: notice)
        func start(_ o: HeadTrackingOptions) throws -> HeadTrackingSession {
            let s = try HeadTrackingSession(options: o, config: config.file, configPath: config.path,
                                            geometry: setup.trackingGeometry, camera: camera)
            s.recordsAtPresent = true   // --record rows when their frame reaches the screen
            try s.start()
            return s
        }
        let automatic = options.requestedSource == nil && config.file?.head == nil
        guard automatic else { return try start(options) }
        guard let device = WebcamSourceFactory.firstDevice() else {
            notice("no webcam found (/dev/video*): the mouse moves your eye (--head video:FILE tracks a recorded face)")
            return try start(options)
        }
        var webcam = options
        webcam.head = .webcam(device: String(device))
        do { return try start(webcam) } catch {
            notice("webcam unavailable (\(error)): the mouse moves your eye")
            return try start(options)
        }
    }
}

/// Draws a progress bar into the window while a scene file loads on the main thread
/// (throttled to about 20 updates a second; window events are pumped so it stays responsive).
final class LoadingScreen {
    let window: SDLWindow
    private let framebuffer = Framebuffer(width: 1, height: 1)
    private var last = -1.0

    init(window: SDLWindow) { self.window = window }

    func show(done: Int, total: Int) {
        let now = MonotonicClock.now()
        guard total > 0, now - last > 0.05 || done >= total else { return }
        last = now
        window.pumpEvents()
        let size = window.drawableSize
        framebuffer.resize(width: size.width, height: size.height)
        framebuffer.clear(color: 0xFF20_1810)
        let fraction = min(1, max(0, Double(done) / Double(total)))
        let w = size.width * 3 / 5, h = max(6, size.height / 60)
        let x0 = (size.width - w) / 2, y0 = size.height / 2
        for y in y0..<min(size.height, y0 + h) {
            for x in x0..<(x0 + w) {
                framebuffer.color[y * size.width + x] = x - x0 < Int(Double(w) * fraction) ? 0xFFF0_C060 : 0xFF50_4030
            }
        }
        let text = String(format: "LOADING %.0f%%  %.1f / %.1f MB", fraction * 100, Double(done) / 1e6, Double(total) / 1e6)
        let scale = size.width >= 1600 ? 3 : 2
        BitmapFont.draw(text, x: x0, y: y0 - (BitmapFont.glyphHeight + 4) * scale, scale: scale, color: 0xFFFF_FFFF,
                        into: framebuffer.color, width: size.width, height: size.height)
        try? window.present(framebuffer)
    }
}
