import ArgumentParser
import Foundation
import ImageIO
import RenderCore
import Viewer

/// `splatframe render`: one frame, headless, to PNG (and optionally a PFM depth map).
struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render", abstract: "Render one frame headless (no display needed) to a PNG.",
        discussion: "With --camera the scene is drawn in its own coordinates, as the camera JSON's matrices say; with --eye it is placed behind the screen and seen through the off-axis frustum.")

    @Argument(help: "Scene JSON, mesh or splat file (default: the cube room).") var scene: String?
    @Option(help: "Eye position X,Y,Z in metres (screen space, Z > 0).") var eye: String?
    @Option(help: "Camera JSON: {width, height, view[16], projection[16], background[3]}.") var camera: String?
    @Option(help: "Image size WxH in pixels (default 1280x720, or the camera's).") var size: String?
    @Option(help: "Output PNG.") var out: String
    @Option(name: .customLong("depth-out"), help: "Also write camera-space depth (metres along −Z, +inf = empty) as PFM.") var depthOut: String?
    @Option(help: "Render threads (default: one per core).") var threads: Int?
    @OptionGroup var screenOptions: ScreenOptions
    @OptionGroup var configOption: ConfigOption
    @OptionGroup var room: RoomOptions
    @OptionGroup var model: ModelOptionGroup
    @OptionGroup var stereoOptions: StereoOptions

    func run() throws {
        guard (eye == nil) != (camera == nil) else {
            throw ViewerError.badOption(name: "--eye/--camera", value: "", reason: "give exactly one of --eye X,Y,Z or --camera CAM.json")
        }
        let threads = try WindowOptions(threads: self.threads).validatedThreads()
        let setup = ViewingSetup.resolve(screenFlag: try screenOptions.flag(), config: try configOption.hermetic().file)
        let screen = setup.screen.value
        let source: EyeSource
        var width = 1280, height = 720
        if let camera {
            let cam = try CameraFile.load(camera)
            if let size {
                let s = try OptionParsing.size(size)
                guard s.width == cam.width && s.height == cam.height else {
                    throw ViewerError.badOption(name: "--size", value: size, reason: "differs from the camera file's \(cam.width)x\(cam.height)")
                }
            }
            source = FixedCameraSource(camera: cam)
            width = cam.width; height = cam.height
        } else {
            let s = try OptionParsing.size(size ?? "1280x720")
            source = FixedEyeSource(eye: try OptionParsing.eye(eye!))
            width = s.width; height = s.height
        }
        let sceneObject: Scene
        if let path = scene {
            var options = try model.options()
            options.videoPlayback = .frameExact
            let loader = try SceneLoader(path: path, options: options, progress: LoadProgress.reporter(for: path))
            for w in loader.warnings { FileHandle.standardError.write(Data("warning: \(w)\n".utf8)) }
            sceneObject = try camera != nil ? loader.sceneInOwnCoordinates(screen: screen) : loader.scene(screen: screen)
        } else {
            let description = try room.description()
            sceneObject = description.scene(screen: screen, walls: try description.openWalls(playback: .frameExact))
        }
        let context = RenderContext(threads: threads)
        let record: FrameRecord, fb: Framebuffer
        if let (mode, ipd) = try stereoOptions.resolved() {
            if depthOut != nil { throw ViewerError.badOption(name: "--depth-out", value: depthOut!, reason: "is for mono frames; drop --stereo") }
            // Full side by side writes each eye at the full --size: a double-width picture.
            if mode == .sideBySide(half: false) { width *= 2 }
            let stereo = StereoRenderer(mode: mode, ipd: ipd, scene: sceneObject, setup: setup, context: context, width: width, height: height)
            record = stereo.renderFrame(from: source, index: 0, width: width, height: height)
            fb = stereo.output
        } else {
            let driver = FrameDriver(scene: sceneObject, setup: setup, context: context, width: width, height: height)
            record = driver.renderFrame(from: source, index: 0)
            fb = driver.framebuffer
        }
        try ImageFile.savePNG(fb.image(), to: out)
        if let depthOut { try PFMFile.save(width: fb.width, height: fb.height, values: fb.depthArray, to: depthOut) }
        FileHandle.standardError.write(Data(String(format: "splatframe: rendered %@ (%d primitives) at %dx%d in %.1f ms -> %@\n",
                                                   sceneObject.name, sceneObject.primitiveCount, fb.width, fb.height,
                                                   record.stats.totalMs, out).utf8))
    }
}

extension WindowOptions {
    init(threads: Int?) {
        self.init()
        self.threads = threads
    }
}
