// TrackCalibrateCommand — `splatframe track calibrate`: fit the IPD (or focal length) from a
// viewer sitting centred at a tape-measured distance, and save it to the config file.
import Media
import ArgumentParser
import Foundation
import HeadTracking
import RenderCore
import Settings
import Viewer
import WebcamTracking

struct TrackCalibrateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "calibrate",
        abstract: "Calibrate the webcam tracker: sit centred at a measured distance; fits your IPD (or the camera's focal length) and saves it.",
        discussion: "Sit facing the screen, eyes level with the camera's axis as well as you can, at --distance metres from the camera (measure with a tape). The tracker watches for --seconds and writes ipdMM (or cameraFocalPx with --fit focal) to the config file.")

    @OptionGroup var input: WebcamInputOptions
    @Option(parsing: .unconditional, help: "Distance from the camera to your eyes in metres, 0.2…3.", transform: Checked.number(in: 0.2...3, "m"))
    var distance: Double = 0.6
    @Option(parsing: .unconditional, help: "Seconds to watch, 0.5…60.", transform: Checked.number(in: 0.5...60, "s")) var seconds: Double = 3
    @Option(help: "What to fit: ipd keeps the camera's field of view, focal keeps your IPD.") var fit: WebcamCalibration.Fit = .ipd
    @Flag(name: .customLong("dry-run"), help: "Print the result without saving it.") var dryRun = false
    @OptionGroup var configOption: ConfigOption

    func validate() throws {
        guard input.device == nil || input.video == nil else { throw OptionError("--device/--video", "", "give at most one of --device and --video") }
    }

    func run() throws {
        let what = fit
        let config = try configOption.interactive(creating: true)
        let settings = try SettingsResolver.resolve(config: config.file, configPath: config.path, flags: HeadTrackingOptions(),
                                                    geometry: ViewingSetup.resolve(config: config.file).trackingGeometry)
        let capture = try VideoCapture(input.capture)
        let pipeline = try WebcamSourceFactory.pipeline(config: config.file, settings: settings,
                                                        models: WebcamModels.locate(explicit: input.models), prefer: input.detector) {
            FileHandle.standardError.write(Data("splatframe: \($0)\n".utf8))
        }
        let model = pipeline.model
        FileHandle.standardError.write(Data(String(format: "calibrating: sit centred, %.2f m from the camera, for %.0f s…\n", distance, seconds).utf8))
        var observations: [EyeObservation] = []
        var frame = RGBFrame()
        let t0 = MonotonicClock.now()
        let fps = capture.fps > 0 ? capture.fps : 30
        var i = 0
        while true {
            let t = capture.isFile ? Double(i) / fps : MonotonicClock.now() - t0
            if t >= seconds { break }
            if try !capture.read(into: &frame, timestamp: t) {
                // A file (or a still picture) loops, as the window plays it, until the time is up.
                try capture.rewind()
                guard try capture.read(into: &frame, timestamp: t) else { break }
            }
            observations.append(try pipeline.process(frame))
            i += 1
        }
        let r = try WebcamCalibration.fit(observations, distance: distance, model: model, fit: what)
        print(String(format: "%@ = %g (from %d of %d frames, %@: eyes %.1f px apart at 640 px width, distance spread ± %.1f mm; you sat %+.0f mm, %+.0f mm off the camera axis)",
                     r.key, r.value, r.framesUsed, r.framesSeen, pipeline.backend.rawValue, r.eyeSpacing, r.spread * 1000,
                     r.offset.x * 1000, r.offset.y * 1000))
        if dryRun { return }
        let path = try ConfigFile.update(path: config.path, [r.key: r.value])
        print("saved \(r.key) to \(path)")
    }
}
