// TrackLatencyReplayCommand — `splatframe track latency-replay TRACE`: a rig run's tracker reads
// (`track latency --trace`) replayed through other filters and predictions, each scored against
// the true path as the rig scores it — a trade-off table from one real-time recording.
import ArgumentParser
import Foundation
import HeadTracking
import LatencyRig
import RenderCore

struct TrackLatencyReplayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "latency-replay",
        abstract: "Score a latency rig's trace again through other filters and predictions.",
        discussion: """
        TRACE is what `splatframe track latency --trace TRACE` wrote: every read of the tracker (its time, the \
        present lead it predicted over, the camera sample it had) and which reads the presented frames used. The \
        tracker depends on nothing else, so each --filter (repeat it to compare several) gives the eyes it would \
        have drawn for on the same camera frames at the same moments, scored against the true path: lag, error while \
        moving, overshoot, still jitter, one line each. Deterministic: no camera, no renderer, no real time.
        """)

    @Argument(help: "A trace from `splatframe track latency --trace`.") var trace: String
    @Option(name: .customLong("filter"), help: "A filter to score (repeatable): none, ema[:ALPHA], oneeuro[:MINCUTOFF,BETA,DCUTOFF], kalman[:NOISE_MM,GAIN[,INNOVATION]], kalman-ca[:NOISE_MM,JERK,GATE] (default: kalman-ca).")
    var filters: [FilterSpec] = []
    @Option(name: .customLong("predict"), parsing: .unconditional,
            help: "Prediction: to when each frame reached the screen, plus MS milliseconds (0…1000, default 0); off: none.",
            transform: { $0.lowercased() == "off" ? -1 : try Checked.number(in: 0...1000, "ms")($0) })
    var predict: Double = 0
    @Option(name: .customLong("per-frame"), help: "Write the first filter's presented frames (times, eye used, true eye) to this CSV.")
    var perFrame: String?
    @Option(help: "The head log a walk's trace was recorded with (our CSV, TUM or opentrack).") var log: String?

    func run() throws {
        let recorded = try LatencyTraceFile.read(path: trace)
        let motion: LatencyMotion
        switch recorded.motion {
        case "sway": motion = .sway
        case "step": motion = .step
        case "nod": motion = .nod
        case "walk":
            guard let log else { throw OptionError("--log", "", "the trace is of a walk: name the head log it replayed") }
            motion = .walk(busiestOf: try PoseLogReader().read(path: log))
        default: throw HeadTrackingError.badFile(file: trace, reason: "unknown motion '\(recorded.motion)'")
        }
        let presented = recorded.reads.filter { $0.present != nil }.count
        print("trace \(trace): \(recorded.motion), camera \(String(format: "%.0f", recorded.cameraFPS)) fps, "
              + "\(recorded.reads.count) tracker reads, \(presented) frames presented; prediction \(predict < 0 ? "off" : "on")")
        print("filter                       lag ms   RMS mm   p95 mm   overshoot mm   jitter mm")
        for (index, filter) in (filters.isEmpty ? [FilterSpec.default] : filters).enumerated() {
            var settings = HeadTrackerSettings()
            settings.filter = filter
            settings.predictionHorizon = predict < 0 ? nil : predict / 1000
            settings.neutralEye = Vec3d(LatencyMotion.rest.x, LatencyMotion.rest.y, LatencyMotion.rest.z)
            let frames = recorded.replay(settings: settings)
            if index == 0, let perFrame { try LatencyPerFrameFile.write(frames, motion: motion, to: perFrame) }
            let f = LatencyAnalysis.analyse(frames, motion: motion)
            func n(_ v: Double?, _ width: Int) -> String {
                guard let v, v.isFinite else { return String(repeating: " ", count: width - 1) + "–" }
                let s = String(format: "%.2f", v)
                return String(repeating: " ", count: max(0, width - s.count)) + s
            }
            let name = filter.description.padding(toLength: max(27, filter.description.count), withPad: " ", startingAt: 0)
            print("\(name)\(n(f.lagMs, 8))\(n(f.rmsMm, 9))\(n(f.p95Mm, 9))\(n(f.overshootMm, 15))\(n(f.jitterMm, 12))")
        }
    }
}
