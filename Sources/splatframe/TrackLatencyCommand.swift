// TrackLatencyCommand — `splatframe track latency`: motion-to-photon latency against ground truth.
// A rendered head moves along a known path as a live camera; the program tracks it and draws the
// scene through its own path; every presented frame is scored against the true eye at that moment.
import ArgumentParser
import CSDL2
import Foundation
import HeadRig
import HeadTracking
import LatencyRig
import RenderCore
import Viewer
import WebcamTracking

/// The head paths `--motion` names.
enum LatencyMotionName: String, ArgumentChoice {
    case sway, step, nod, walk
}

extension WebcamSource.Stamping: ArgumentChoice {}

struct TrackLatencyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "latency",
        abstract: "Measure motion-to-photon latency against a rendered head whose eye is known at every moment.",
        discussion: """
        MediaPipe's canonical face, textured from --face, moves along a known path and is filmed as a live \
        640x480 webcam at --camera-fps, each frame delivered --camera-delay-ms after its exposure (default: one \
        frame). SplatFrame tracks it and draws SCENE (default: the cube room) as the window does, frame after \
        frame, headless or in a window (--window). Paths: sway (±8 cm at 0.5 Hz, four cycles, eased in and out over a half cycle), step (10 cm in 0.3 s, then \
        still; four times), nod (±20° at 0.5 Hz), walk (the 10 s of --log where the head travels farthest, scaled to ±10 cm). Each starts with 3 s still \
        (the tracker's constant offset is calibrated out there). Prints the effective lag (the shift of the true \
        path that best explains the eye used; negative leads), the error while moving, the overshoot after a \
        stop, the still jitter and where the time went. Real time: run it on an otherwise idle machine.
        """)

    @Option(help: "The head's path.") var motion: LatencyMotionName = .sway
    @Option(name: .customLong("camera-fps"), parsing: .unconditional, help: "The camera's frame rate, 5…240.",
            transform: Checked.number(in: 5...240, "fps"))
    var cameraFPS: Double = 30
    @Option(name: .customLong("camera-delay-ms"), parsing: .unconditional, help: "Exposure → delivery of each camera frame, 0…500 ms (default: one frame).",
            transform: Checked.number(in: 0...500, "ms"))
    var cameraDelayMs: Double?
    @OptionGroup var rigHead: RigHeadOptions
    @Option(help: "The head log the walk replays (our CSV, TUM or opentrack).") var log: String?
    @Option(help: "How camera frames are stamped.") var timestamps: WebcamSource.Stamping = .exposure
    @OptionGroup var smoothing: SmoothingOptions
    @OptionGroup var sizeOption: SizeOption
    @OptionGroup var sceneOptions: SceneOptionGroup
    @Option(parsing: .unconditional, help: "Camera noise: standard deviation in levels, 0…50.", transform: Checked.number(in: 0...50, "levels"))
    var noise: Double = 3
    @Flag(help: "Present each frame in a window (SDL) instead of headless.") var window = false
    @Option(help: "Late reprojection: each frame warped to the eye read again after rendering (on), or rendered on its own thread with every display refresh (--display-hz) showing the newest frame warped to that refresh's eye (async).")
    var reproject: ReprojectMode = .off
    @Option(name: .customLong("display-hz"), parsing: .unconditional, help: "With --reproject async: the refresh rate presented at, 10…240 Hz.",
            transform: Checked.number(in: 10...240, "Hz"))
    var displayHz: Double = 60
    @Option(name: .customLong("per-frame"), help: "Write every presented frame (times, eye used, true eye) to this CSV.")
    var perFrame: String?
    @Option(help: "Write every read of the tracker (time, lead, sample, present) to this CSV, for `track latency-replay`.")
    var trace: String?

    func validate() throws {
        if motion == .walk && log == nil { throw OptionError("--motion", "walk", "needs --log LOG (a head log to replay)") }
    }

    func run() throws {
        let (camera, head, pipeline) = try rigHead.make()
        let path: LatencyMotion
        switch motion {
        case .sway: path = .sway
        case .step: path = .step
        case .nod: path = .nod
        case .walk: path = .walk(busiestOf: try PoseLogReader().read(path: log!))
        }
        var configuration = LatencyRigConfiguration(motion: path)
        configuration.cameraFPS = cameraFPS
        configuration.cameraDelay = cameraDelayMs.map { $0 / 1000 }
        configuration.noise = noise
        configuration.stamping = timestamps
        var tracker = HeadTrackerSettings()
        if let f = smoothing.filter { tracker.filter = f }
        let predict = smoothing.predict ?? 0
        tracker.predictionHorizon = predict < 0 ? nil : predict / 1000
        tracker.neutralEye = Vec3d(LatencyMotion.rest.x, LatencyMotion.rest.y, LatencyMotion.rest.z)
        configuration.tracker = tracker
        configuration.reprojection = reproject.lateReprojection
        configuration.displayHz = displayHz

        let setup = ViewingSetup()
        var options = SceneLoader.ModelOptions()
        options.lod = sceneOptions.lod.options
        options.cubeRoom = sceneOptions.cubeRoom
        let scene = sceneOptions.scene
        let loader = try SceneLoader.load(source: scene, options: options)
        let size = sizeOption.value
        let driver = FrameDriver(scene: try loader.scene(screen: setup.screen.value), setup: setup,
                                 context: RenderContext(producesDepth: reproject != .off), width: size.width, height: size.height)
        let rig = LatencyRig(configuration: configuration, pipeline: pipeline, camera: camera)
        let frames: [PresentedFrame]
        if window {
            let sdl = try SDLWindow(title: "SplatFrame - latency rig (\(path.name))", width: size.width, height: size.height, fullscreen: false)
            frames = try rig.run(head: head, driver: driver) { fb in
                try sdl.present(fb)
                // Closing the window or q ends the run.
                var event = SDL_Event()
                while SDL_PollEvent(&event) != 0 {
                    if event.type == SDL_QUIT.rawValue { return false }
                    if event.type == SDL_KEYDOWN.rawValue && event.key.keysym.sym == Int32(SDLK_q.rawValue) { return false }
                }
                return true
            }
        } else {
            frames = try rig.run(head: head, driver: driver) { _ in true }
        }
        let figures = LatencyAnalysis.analyse(frames, motion: path)
        print(LatencyReport.text(figures, configuration: configuration, scene: scene.description, filter: tracker.filter.description,
                                 window: window))
        if let perFrame { try LatencyPerFrameFile.write(frames, motion: path, to: perFrame) }
        if let trace, let recorded = rig.trace { try LatencyTraceFile.write(recorded, to: trace) }
    }
}
