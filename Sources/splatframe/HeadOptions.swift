// HeadOptions — the head-tracking flags as an ArgumentParser option group.
import ArgumentParser
import HeadTracking

/// `@OptionGroup var head: HeadOptions` adds the head-tracking flags to a command.
/// Values stay strings here and are parsed by `resolved()` so that bad values produce the
/// project's one-line error with exit code 2 (see `SplatFrameCommand.mainReportingErrors`).
struct HeadOptions: ParsableArguments {
    @Option(name: .customLong("head"), help: "Head source: mouse, fixed:X,Y,Z, replay:LOG, udp[:HOST][:PORT], webcam.")
    var head: String?

    @Option(name: .customLong("eye"), help: "Fixed eye position X,Y,Z in metres (screen space); overrides --head.")
    var eye: String?

    @Option(name: .customLong("filter"), help: "Smoothing: none, ema[:ALPHA], oneeuro[:MINCUTOFF,BETA,DCUTOFF].")
    var filter: String?

    @Option(name: .customLong("predict"), help: "Predict the head to when each frame reaches the screen (double exponential smoothing), plus MS more (0: just the render-and-present time).")
    var predict: Double?

    @Option(name: .customLong("movement-scale"), help: "Multiplies head movement about the neutral eye (1 = true parallax).")
    var movementScale: Double?

    @Option(name: .customLong("axis-strength"), help: "Per-axis movement strength X,Y,Z (default 1,1,1).")
    var axisStrength: String?

    @Option(name: .customLong("record"), help: "Record raw and filtered poses of every frame to this CSV.")
    var record: String?

    @Flag(name: .customLong("loop"), help: "Replay: loop the log.")
    var loop = false

    @Option(name: .customLong("speed"), help: "Replay: speed factor (default 1).")
    var speed: Double = 1

    @Flag(name: .customLong("recenter"), help: "Replay: move the log's median position to the nominal eye (0,0,0.6).")
    var recenter = false

    @Option(name: .customLong("axes"), help: "Replay: remap/negate log axes, e.g. x,-z,y.")
    var axes: String?

    @Flag(name: .customLong("lenient"), help: "Replay: skip bad log lines instead of failing.")
    var lenient = false

    /// The parsed options (throws `HeadTrackingError.badSpec` for malformed values).
    func resolved() throws -> HeadTrackingOptions {
        var o = HeadTrackingOptions()
        o.head = try head.map(HeadSourceSpec.init(parsing:))
        o.eye = try eye.map { try parseVector3($0, what: "--eye") }
        o.filter = try filter.map(FilterSpec.init(parsing:))
        if let p = predict {
            guard p >= 0, p <= 1000 else { throw HeadTrackingError.badSpec(what: "--predict", value: "\(p)", expected: "0…1000 ms") }
            o.predictMs = p
        }
        if let m = movementScale {
            guard m >= 0, m.isFinite else { throw HeadTrackingError.badSpec(what: "--movement-scale", value: "\(m)", expected: "a number ≥ 0") }
            o.movementScale = m
        }
        o.axisStrength = try axisStrength.map { try parseVector3($0, what: "--axis-strength") }
        o.recordPath = record
        o.loop = loop
        guard speed > 0, speed.isFinite else { throw HeadTrackingError.badSpec(what: "--speed", value: "\(speed)", expected: "a number > 0") }
        o.speed = speed
        o.recenter = recenter
        o.axes = try axes.map(AxisMapping.init(parsing:))
        o.lenient = lenient
        return o
    }
}
