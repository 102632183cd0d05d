// HeadOptions — the head-tracking option groups, each declared once: the source, smoothing,
// movement, reading logs, replay playback. The window takes them all; `track` subcommands,
// bench and export take the groups that mean something to them.
import ArgumentParser
import Foundation
import HeadTracking
import WebcamTracking

/// `--head SOURCE`.
struct HeadSourceOption: ParsableArguments {
    @Option(name: .customLong("head"),
            help: "Head source: mouse, fixed:X,Y,Z (an eye as --eye takes it), replay:LOG, udp[:HOST][:PORT], webcam[:DEVICE|URL], video:FILE.")
    var head: HeadSourceSpec?
}

/// `--filter SPEC` and `--predict MS`.
struct SmoothingOptions: ParsableArguments {
    @Option(name: .customLong("filter"), help: "Smoothing: none, ema[:ALPHA], oneeuro[:MINCUTOFF,BETA,DCUTOFF], kalman[:NOISE_MM,GAIN[,INNOVATION]], kalman-ca[:NOISE_MM,JERK,GATE] (default: the config's, else kalman-ca).")
    var filter: FilterSpec?
    @Option(name: .customLong("predict"), parsing: .unconditional,
            help: "Prediction: the eye is predicted to when each frame reaches the screen, plus MS milliseconds (0…1000, default 0); off shows the newest sample as it is.",
            transform: { $0.lowercased() == "off" ? -1 : try Checked.number(in: 0...1000, "ms")($0) })
    var predict: Double?
}

/// `--movement-scale S`.
struct MovementScaleOption: ParsableArguments {
    @Option(name: .customLong("movement-scale"), parsing: .unconditional, help: "Multiplies head movement about the neutral eye, 0…20 (1 = true parallax).",
            transform: Checked.number(in: 0...20, ""))
    var movementScale: Double?
}

/// `--recenter` and `--axes` for logs from other trackers.
struct LogFrameOptions: ParsableArguments {
    @Flag(name: .customLong("recenter"), help: "Logs: move the log's median position to the nominal eye (0, 0, 0.6) m (foreign logs).")
    var recenter = false
    @Option(name: .customLong("axes"), help: "Logs: remap/negate axes before recentring, e.g. x,-z,y or -x,y,z.")
    var axes: AxisMapping?
}

/// `--lenient`.
struct LenientOption: ParsableArguments {
    @Flag(name: .customLong("lenient"), help: "Logs: skip bad lines (and count them) instead of failing.")
    var lenient = false
}

/// `--loop` and `--speed` for a log replayed in real time.
struct ReplayPlaybackOptions: ParsableArguments {
    @Flag(name: .customLong("loop"), help: "Replay: loop the log.")
    var loop = false
    @Option(name: .customLong("speed"), parsing: .unconditional, help: "Replay: speed factor, more than 0 and at most 100 (default 1).",
            transform: Checked.number(above: 0, upTo: 100, "×"))
    var speed: Double = 1
}

/// Every head-tracking option of the window (`cube`, `open`, `library`) and `config`.
struct HeadOptions: ParsableArguments {
    @OptionGroup var source: HeadSourceOption
    @OptionGroup var detector: DetectorOption
    @OptionGroup var eye: EyeOption
    @OptionGroup var smoothing: SmoothingOptions
    @OptionGroup var movement: MovementScaleOption
    @Option(name: .customLong("axis-strength"), help: "Per-axis movement strength X,Y,Z, each 0…10 (default 1,1,1).")
    var axisStrength: AxisStrength?
    @Option(name: .customLong("record"), help: "Record raw and filtered poses of every frame to this CSV.")
    var record: String?
    @OptionGroup var sendPose: SendPoseOption
    @OptionGroup var playback: ReplayPlaybackOptions
    @OptionGroup var frame: LogFrameOptions
    @OptionGroup var lenient: LenientOption

    /// The options as HeadTracking's plain values.
    var resolved: HeadTrackingOptions {
        var o = HeadTrackingOptions()
        o.head = source.head
        o.detector = detector.detector?.rawValue
        o.eye = eye.eye?.precise
        smoothing.apply(to: &o)
        o.movementScale = movement.movementScale
        o.axisStrength = axisStrength?.precise
        o.recordPath = record
        o.sendPose = sendPose.target
        playback.apply(to: &o)
        frame.apply(to: &o)
        o.lenient = lenient.lenient
        return o
    }
}

/// The log replayed frame by frame (`bench`, `export`) and the head options that mean something to it.
struct ReplayOptions: ParsableArguments {
    @Option(help: "Head-track log to replay, frame i at i/RATE s (bench: --path-rate; export: --fps).") var track: String?
    @OptionGroup var frame: LogFrameOptions
    @OptionGroup var smoothing: SmoothingOptions
    @OptionGroup var movement: MovementScaleOption

    func validate() throws {
        if let track, !FileManager.default.isReadableFile(atPath: track) { throw OptionError("--track", track, "no such file") }
    }

    var resolved: HeadTrackingOptions {
        var o = HeadTrackingOptions()
        frame.apply(to: &o)
        smoothing.apply(to: &o)
        o.movementScale = movement.movementScale
        return o
    }
}

// Each group writes its own fields into HeadTracking's plain values, once for every command.
extension SmoothingOptions {
    func apply(to o: inout HeadTrackingOptions) { o.filter = filter; o.predictMs = predict }
}
extension LogFrameOptions {
    func apply(to o: inout HeadTrackingOptions) { o.recenter = recenter; o.axes = axes }
}
extension ReplayPlaybackOptions {
    func apply(to o: inout HeadTrackingOptions) { o.loop = loop; o.speed = speed }
}

/// `--send-pose udp[:HOST][:PORT]`.
struct SendPoseOption: ParsableArguments {
    @Option(name: .customLong("send-pose"),
            help: "Send the filtered head pose to other apps as opentrack UDP packets: udp[:HOST][:PORT] (default 127.0.0.1:4242).")
    var target: PoseTarget?
}
