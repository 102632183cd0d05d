// TrackWebcamCommand — `splatframe track webcam`: the webcam tracker frame by frame into a log,
// with bench-style timing figures.
import Media
import ArgumentParser
import Foundation
import HeadTracking
import RenderCore
import Settings
import Viewer
import WebcamTracking

struct TrackWebcamCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "webcam",
        abstract: "Track a face in a camera or a video file and write raw and filtered poses of every frame (with confidence) to a log.",
        discussion: """
        Every frame is processed in order (a file at its own time base, frame i at i/fps s; a camera \
        stamped at capture), so the log can be replayed (--head replay:LOG), filtered and benchmarked. \
        --stats prints detection + landmark + estimation time per frame (median, p90), capture-to-pose \
        latency, detection rates and distance jitter.
        """)

    @OptionGroup var input: WebcamInputOptions
    @Option(help: "Output log (CSV).") var out: String?
    @Option(parsing: .unconditional, help: "Frames to process, 1…1000000000 (a file stops at its end unless this asks for more: it loops).",
            transform: Checked.integer(in: 1...1_000_000_000, "frames"))
    var frames: Int?
    @Flag(help: "Print timing and tracking statistics.") var stats = false
    @OptionGroup var smoothing: SmoothingOptions
    @OptionGroup var sendPose: SendPoseOption
    @OptionGroup var configOption: ConfigOption

    func validate() throws {
        guard (input.device == nil) != (input.video == nil) else { throw OptionError("--device/--video", "", "give exactly one of --device N and --video FILE") }
        guard out != nil || stats || sendPose.target != nil else {
            throw OptionError("--out/--stats/--send-pose", "", "give --out LOG.csv, --stats, --send-pose, or several")
        }
    }

    func run() throws {
        let config = try configOption.interactive()
        var options = HeadTrackingOptions()
        smoothing.apply(to: &options)
        let settings = try SettingsResolver.resolve(config: config.file, configPath: config.path, flags: options,
                                                    geometry: ViewingSetup.resolve(config: config.file).trackingGeometry)
        let capture = try VideoCapture(input.capture)
        let pipeline = try WebcamSourceFactory.pipeline(config: config.file, settings: settings,
                                                        models: WebcamModels.locate(explicit: input.models), prefer: input.detector) {
            FileHandle.standardError.write(Data("splatframe: \($0)\n".utf8))
        }
        let tracker = HeadTracker(source: FixedSource(eye: settings.geometry.neutralEye), settings: settings.trackerSettings)
        let sender = try sendPose.target.map { try PoseSender(host: $0.host, port: $0.port, mapping: settings.opentrackMapping) }
        let recorder = try out.map {
            try PoseRecorder(path: $0, comment: ["splatframe track webcam: \(capture.source), detector \(pipeline.backend.rawValue), filter \(settings.filter.value)"],
                             eyes: true)
        }
        let fps = capture.isFile ? (capture.fps > 0 ? capture.fps : 30) : 0
        let limit = frames ?? (capture.isFile ? max(1, capture.frameCount) : Int.max)
        var summary = WebcamRunSummary(backend: pipeline.backend.rawValue)
        var frame = RGBFrame()
        var index = 0
        let t0 = MonotonicClock.now()
        while index < limit {
            let stamp = capture.isFile ? Double(index) / fps : MonotonicClock.now() - t0
            let readStart = MonotonicClock.now()
            if try !capture.read(into: &frame, timestamp: stamp) {
                if frames == nil { break }
                try capture.rewind()
                guard try capture.read(into: &frame, timestamp: stamp) else { break }
            }
            let captured = capture.isFile ? readStart : MonotonicClock.now()
            let o = try pipeline.process(frame)
            let posed = MonotonicClock.now()
            let sample = o.eyePoint(model: pipeline.model).map {
                PoseSample(timestamp: stamp, position: $0, rotation: o.angles ?? o.eyes.map { Vec3d(0, 0, $0.roll) },
                           confidence: o.confidence, eyeSpan: o.eyes.map { $0.right - $0.left })
            }
            let pose = tracker.update(sample: sample, at: stamp)
            try recorder?.record(pose, confidence: o.confidence)
            if let sender, sample != nil, pose.state != .lost { sender.send(pose) }
            summary.add(o, captureToPose: posed - captured)
            index += 1
        }
        try recorder?.close()
        if let out { print("wrote \(index) frames to \(out)") }
        if stats { print(summary.report(source: "\(capture.source)", width: capture.width, height: capture.height), terminator: "") }
    }
}

/// The `--stats` figures of a run.
struct WebcamRunSummary {
    let backend: String
    var frames = 0, faces = 0, eyes = 0
    var processingMs: [Double] = [], latencyMs: [Double] = [], distances: [Double] = [], steps: [Double] = []
    var searches: [String: Int] = [:]

    init(backend: String) { self.backend = backend }

    mutating func add(_ o: EyeObservation, captureToPose: Double) {
        frames += 1
        processingMs.append(o.processingTime * 1000)
        latencyMs.append(captureToPose * 1000)
        searches[o.search.rawValue, default: 0] += 1
        if o.face != nil { faces += 1 }
        guard let e = o.eyes else { return }
        eyes += 1
        if let last = distances.last { steps.append(abs(e.distance - last) * 1000) }
        distances.append(e.distance)
    }

    func report(source: String, width: Int, height: Int) -> String {
        func stat(_ v: [Double]) -> (Double, Double) {
            let s = v.sorted()
            return s.isEmpty ? (0, 0) : (s[s.count / 2], s[min(s.count - 1, s.count * 9 / 10)])
        }
        let (pm, p90) = stat(processingMs), (lm, l90) = stat(latencyMs), (jm, j90) = stat(steps)
        let pct = { (n: Int) in frames > 0 ? 100 * Double(n) / Double(frames) : 0 }
        var r = "webcam tracking: \(source) (\(width)x\(height)), detector \(backend), \(frames) frames\n"
        r += String(format: "  face found            %5.1f %%   both eyes %5.1f %%\n", pct(faces), pct(eyes))
        r += String(format: "  detect+landmarks+estimate  median %6.2f ms   p90 %6.2f ms   (%.0f fps of processing)\n", pm, p90, pm > 0 ? 1000 / pm : 0)
        r += String(format: "  capture to pose            median %6.2f ms   p90 %6.2f ms\n", lm, l90)
        if let lo = distances.min(), let hi = distances.max() {
            r += String(format: "  distance %.2f–%.2f m;  frame-to-frame |Δz| median %.1f mm, p90 %.1f mm\n", lo, hi, jm, j90)
        }
        r += "  searches: " + searches.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ") + "\n"
        return r
    }
}
