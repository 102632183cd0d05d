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

    @OptionGroup var sceneOptions: SceneOptionGroup
    @OptionGroup var eyeOption: EyeOption
    @OptionGroup var cameraOption: CameraOption
    @OptionGroup var sizeOption: SizeOption
    @Option(help: "Output PNG.") var out: String
    @Option(help: ArgumentHelp("Scene time in seconds: an animated capture shows the frame due S seconds from its start (frame ⌊S·fps⌋, wrapping past the end); video walls their frame at S.", valueName: "S"))
    var time: Double?
    @Option(name: .customLong("depth-out"), help: "Also write camera-space depth (metres along −Z, +inf = empty) as PFM.") var depthOut: String?
    @OptionGroup var threadsOption: ThreadsOption
    @OptionGroup var screenOptions: ScreenOptions
    @OptionGroup var configOption: ConfigOption
    @OptionGroup var model: ModelOptionGroup
    @OptionGroup var stereoOptions: StereoOptions

    func validate() throws {
        guard (eyeOption.eye == nil) != (cameraOption.camera == nil) else {
            throw OptionError("--eye/--camera", "", "give exactly one of --eye X,Y,Z or --camera CAM.json")
        }
        if let time, !(time.isFinite && time >= 0 && time <= 1e6) {
            throw OptionError("--time", "\(time)", "expected seconds, 0…1000000")
        }
        if stereoOptions.stereo != nil, let depthOut { throw OptionError("--depth-out", depthOut, "is for mono frames; drop --stereo") }
    }

    func run() throws {
        let scene = sceneOptions.scene
        let threads = threadsOption.count
        let setup = ViewingSetup.resolve(screenFlag: screenOptions.flag(), config: try configOption.hermetic().file)
        let screen = setup.screen.value
        var source: EyeSource
        var width: Int, height: Int
        if let camera = cameraOption.camera {
            let cam = try CameraFile.load(camera)
            if let size = sizeOption.size, size.width != cam.width || size.height != cam.height {
                throw OptionError("--size", "\(size)", "differs from the camera file's \(cam.width)x\(cam.height)")
            }
            source = FixedCameraSource(camera: cam)
            width = cam.width; height = cam.height
        } else {
            source = FixedEyeSource(eye: eyeOption.eye!.value)
            (width, height) = (sizeOption.value.width, sizeOption.value.height)
        }
        var options = model.options(lod: sceneOptions.lod)
        options.videoPlayback = .frameExact
        options.cubeRoom = sceneOptions.cubeRoom
        let loader = try SceneLoader.load(source: scene, options: options, progress: scene.path.flatMap(LoadProgress.reporter(for:)))
        for w in loader.warnings { FileHandle.standardError.write(Data("warning: \(w)\n".utf8)) }
        let sceneObject = try cameraOption.camera != nil ? loader.sceneInOwnCoordinates(screen: screen) : loader.scene(screen: screen)
        if let time {
            // Time starts at the first advance: the source's start, then the frame S seconds on.
            sceneObject.advance(to: source.sceneTime(frame: 0, view: source.view(frame: 0)))
            source = TimeShiftedEyeSource(source, by: time)
        }
        let context = RenderContext(threads: threads, producesDepth: depthOut != nil)
        let record: FrameRecord, fb: Framebuffer
        if let (mode, ipd) = stereoOptions.resolved {
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
        if let error = (sceneObject as? SplatSequenceScene)?.frameError { throw error }
        if let sequence = sceneObject as? SplatSequenceScene {
            FileHandle.standardError.write(Data(String(format: "splatframe: %@: frame %d of %d (%@) at %.3f s\n", sequence.name,
                                                       sequence.shownFrame + 1, sequence.sequence.frames.count,
                                                       sequence.sequence.frames[sequence.shownFrame].name, time ?? 0).utf8))
        }
        try ImageFile.savePNG(fb.image(), to: out)
        if let depthOut { try PFMFile.save(width: fb.width, height: fb.height, values: fb.depthArray, to: depthOut) }
        FileHandle.standardError.write(Data(String(format: "splatframe: rendered %@ (%d primitives) at %dx%d in %.1f ms -> %@\n",
                                                   sceneObject.name, sceneObject.primitiveCount, fb.width, fb.height,
                                                   record.stats.totalMs, out).utf8))
    }
}
