// ReplayOptions — the head-tracking flags that make sense for a replayed log in bench/export.
import ArgumentParser
import HeadTracking

/// `--recenter`, `--axes`, `--filter`, `--movement-scale` for `--track` replays (parsed by
/// `resolved()` so bad values give the one-line error and exit 2).
struct ReplayOptions: ParsableArguments {
    @Flag(help: "Replay: move the log's median position to the nominal eye (0,0,0.6) (foreign logs).") var recenter = false
    @Option(help: "Replay: remap/negate log axes, e.g. x,-z,y.") var axes: String?
    @Option(help: "Replay smoothing: none, ema[:ALPHA], oneeuro[:MINCUTOFF,BETA,DCUTOFF] (default: the config's).") var filter: String?

    @Option(name: .customLong("movement-scale"), help: "Replay: multiplies head movement about the neutral eye (1 = true parallax).")
    var movementScale: Double?

    /// The validated `--movement-scale` (a viewing set-up value, not a tracking one).
    func movementScaleFlag() throws -> Double? {
        guard let m = movementScale else { return nil }
        guard m.isFinite, m >= 0, m <= 20 else {
            throw HeadTrackingError.badSpec(what: "--movement-scale", value: "\(m)", expected: "0…20")
        }
        return m
    }

    func resolved() throws -> HeadTrackingOptions {
        var o = HeadTrackingOptions()
        o.recenter = recenter
        o.axes = try axes.map(AxisMapping.init(parsing:))
        o.filter = try filter.map(FilterSpec.init(parsing:))
        o.movementScale = try movementScaleFlag()
        return o
    }
}
