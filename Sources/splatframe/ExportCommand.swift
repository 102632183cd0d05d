// ExportCommand — `splatframe export`: a head-track replay rendered to PNGs or a video.
import ArgumentParser
import Foundation
import RenderCore
import Viewer
import Bench
import Export

/// `splatframe export SCENE --track LOG --out DIR|FILE.mp4 [--fps 30] [--size WxH] [--splat-budget N]`.
struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export", abstract: "Render a head-track replay frame by frame to a PNG sequence or a video (ffmpeg).",
        discussion: "Frame i shows the log at i/fps seconds; two exports of the same log give identical frames. No config file is read unless --config names one. An --out ending in .mp4/.mkv/.mov/.webm/.gif/.avi is a video made by the ffmpeg command; anything else is a directory of frame_NNNNN.png.")

    @OptionGroup var sceneOptions: SceneOptionGroup
    @Option(help: "Output directory (PNG sequence) or video file (.mp4 etc., needs ffmpeg).") var out: String
    @Option(parsing: .unconditional, help: "Frames per second of the output, more than 0 and at most 1000.", transform: Checked.number(above: 0, upTo: 1000, "fps"))
    var fps: Double = 30
    @OptionGroup var sizeOption: SizeOption
    @OptionGroup var threadsOption: ThreadsOption
    @Option(name: .customLong("max-frames"), parsing: .unconditional, help: "Stop after this many frames (1…10000000).",
            transform: Checked.integer(in: 1...10_000_000, "frames"))
    var maxFrames: Int?
    @Flag(help: "No progress bar.") var quiet = false
    @OptionGroup var screenOptions: ScreenOptions
    @OptionGroup var configOption: ConfigOption
    @OptionGroup var replay: ReplayOptions

    static let videoExtensions = ["mp4", "mkv", "mov", "webm", "gif", "avi"]

    func validate() throws {
        guard replay.track != nil else { throw OptionError("--track", "", "missing: give the head-track log to replay, --track LOG") }
        if Self.isVideo(out), FFmpegSink.findExecutable() == nil {
            throw OptionError("--out", out, "a video needs the ffmpeg command, which is not installed (apt-get install ffmpeg); give a directory for a PNG sequence instead")
        }
    }

    /// An output that names a video file (by its extension), not a directory of PNGs.
    static func isVideo(_ path: String) -> Bool { videoExtensions.contains((path as NSString).pathExtension.lowercased()) }

    func run() throws {
        try export()
    }

    func export() throws {
        let scene = sceneOptions.scene
        let track = replay.track ?? ""
        let s = sizeOption.value
        let threads = threadsOption.count
        let config = try configOption.hermetic()
        let replayOptions = replay.resolved
        let setup = ViewingSetup.resolve(screenFlag: screenOptions.flag(), movementScaleFlag: replayOptions.movementScale, config: config.file)
        let isVideo = Self.isVideo(out)
        let sceneObject = try BenchmarkSceneFactory.make(scene.description, screen: setup.screen.value, ownCoordinates: false,
                                                         room: sceneOptions.cubeRoom, lod: sceneOptions.lod.options)
        let exporter = try ReplayExporter(scene: sceneObject, track: track, fps: fps, width: s.width, height: s.height,
                                          threads: threads, setup: setup,
                                          options: replayOptions, config: config.file, configPath: config.path,
                                          frameLimit: maxFrames)
        let sink: ReplayFrameSink = isVideo ? try FFmpegSink(path: out, width: s.width, height: s.height, fps: fps)
                                            : try PNGSequenceSink(directory: out)
        let bar = ProgressBar(enabled: !quiet)
        let t0 = MonotonicClock.now()
        try exporter.export(to: sink) { done, total in bar.update(done, total) }
        bar.finish()
        FileHandle.standardError.write(Data(String(format: "splatframe: exported %d frames of %@ (%dx%d, %g fps) in %.1f s -> %@\n",
                                                   exporter.frameCount, sceneObject.name, s.width, s.height, fps,
                                                   MonotonicClock.now() - t0, out).utf8))
    }
}

/// A one-line progress bar on stderr: `[#######.........]  45/300 frames`.
final class ProgressBar {
    let enabled: Bool
    private var lastDrawn = -1

    init(enabled: Bool) { self.enabled = enabled }

    func update(_ done: Int, _ total: Int) {
        guard enabled, total > 0 else { return }
        let width = 40
        let filled = done * width / total
        guard filled != lastDrawn || done == total else { return }
        lastDrawn = filled
        let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
        FileHandle.standardError.write(Data("\r[\(bar)] \(done)/\(total) frames".utf8))
    }

    func finish() {
        if enabled && lastDrawn >= 0 { FileHandle.standardError.write(Data("\n".utf8)) }
    }
}
