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

    @OptionGroup var source: HeadSourceOption
    @Option(help: "Output CSV.") var out: String
    @Option(parsing: .unconditional, help: "Seconds to record, more than 0 and at most 86400.", transform: Checked.number(above: 0, upTo: 86_400, "s"))
    var duration: Double = 10
    @Option(parsing: .unconditional, help: "Frames per second, more than 0 and at most 1000.", transform: Checked.number(above: 0, upTo: 1000, "Hz"))
    var rate: Double = 60
    @OptionGroup var smoothing: SmoothingOptions
    @OptionGroup var playback: ReplayPlaybackOptions
    @OptionGroup var frame: LogFrameOptions
    @OptionGroup var lenientOption: LenientOption
    @OptionGroup var configOption: ConfigOption

    func validate() throws {
        guard let head = source.head else { throw OptionError("--head", "", "missing: give fixed:X,Y,Z, replay:LOG or udp[:HOST][:PORT]") }
        if case .mouse = head { throw OptionError("--head", "mouse", "needs a window; use fixed:, replay: or udp") }
        if head.isCamera { throw OptionError("--head", "\(head)", "use `splatframe track webcam` to record a camera or video") }
    }

    func run() throws {
        let head = source.head ?? .default
        var options = HeadTrackingOptions()
        options.head = head
        smoothing.apply(to: &options)
        playback.apply(to: &options)
        frame.apply(to: &options)
        options.lenient = lenientOption.lenient
        let (file, path) = try configOption.interactive()
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
