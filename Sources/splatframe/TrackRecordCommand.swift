// TrackRecordCommand — `splatframe track record --head SOURCE --out LOG`: headless recording.
import RenderCore
import ArgumentParser
import Foundation
import HeadTracking
import Settings
import Viewer

struct TrackRecordCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "record",
        abstract: "Record a head source headless at a fixed frame rate (raw and filtered pose per frame).")

    @Option(help: "Head source: fixed:X,Y,Z, replay:LOG, udp[:HOST][:PORT].") var head: String
    @Option(help: "Output CSV.") var out: String
    @Option(help: "Seconds to record.") var duration: Double = 10
    @Option(help: "Frames per second.") var rate: Double = 60
    @Option(help: "none, ema[:ALPHA], oneeuro[:MINCUTOFF,BETA,DCUTOFF].") var filter: String?
    @Option(help: "Prediction horizon in milliseconds.") var predict: Double?
    @Flag(help: "Replay: loop.") var loop = false
    @Option(help: "Replay: speed factor.") var speed: Double = 1
    @Flag(help: "Replay: move the log's median position to the nominal eye (0, 0, 0.6) m.") var recenter = false
    @Option(help: "Replay: remap/negate log axes, e.g. x,-z,y.") var axes: String?
    @Flag(help: "Replay: skip bad log lines instead of failing.") var lenient = false
    @Option(help: "Config file (default $XDG_CONFIG_HOME/splatframe/config.json).") var config: String?

    func run() throws {
        guard duration > 0, duration.isFinite, rate > 0, rate <= 1000 else {
            throw CommandError("--duration must be > 0 and --rate in (0, 1000]")
        }
        var options = HeadTrackingOptions()
        options.head = try HeadSourceSpec(parsing: head)
        options.filter = try filter.map(FilterSpec.init(parsing:))
        if let p = predict, !(p >= 0 && p <= 1000) { throw CommandError("--predict must be 0…1000 ms") }
        options.predictMs = predict
        options.loop = loop
        guard speed > 0, speed.isFinite else { throw CommandError("--speed must be > 0") }
        options.speed = speed
        options.recenter = recenter
        options.axes = try axes.map(AxisMapping.init(parsing:))
        options.lenient = lenient
        if case .mouse = options.head { throw CommandError("--head mouse needs a window; use fixed:, replay: or udp") }
        let (file, path) = try ConfigOption(config: config).interactive()
        let setup = ViewingSetup.resolve(config: file)
        let settings = try SettingsResolver.resolve(config: file, configPath: path, flags: options, geometry: setup.trackingGeometry)
        let source = try HeadSourceFactory.make(settings.head.value, settings: settings, options: options)
        let tracker = HeadTracker(source: source, settings: settings.trackerSettings)
        let recorder = try PoseRecorder(path: out, comment: [
            "recorded by splatframe track record: head \(settings.head.value), filter \(settings.filter.value)",
        ])
        try source.start()
        defer { source.stop() }
        let t0 = MonotonicClock.now()
        var counts: [TrackingState: Int] = [:]
        var frame = 0
        while true {
            let target = t0 + Double(frame) / rate
            let now = MonotonicClock.now()
            if target > now { Thread.sleep(forTimeInterval: target - now) }
            let t = MonotonicClock.now()
            if t - t0 > duration { break }
            let pose = tracker.pose(at: t)
            try recorder.record(pose)
            counts[pose.state, default: 0] += 1
            frame += 1
        }
        try recorder.close()
        let states = TrackingState.allCases.compactMap { s in counts[s].map { "\(s.rawValue) \($0)" } }.joined(separator: ", ")
        print("recorded \(recorder.rows) frames to \(out) (\(states))")
        if let status = source.statusSummary { print(status) }
    }
}
