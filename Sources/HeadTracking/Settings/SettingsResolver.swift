// SettingsResolver — effective head-tracking settings and where each value came from.
import Foundation
import RenderCore
import Settings

/// The geometry head tracking works in, decided by the viewing set-up (Viewer), not by
/// tracking: the physical screen, the neutral eye, and how much head motion is scaled.
public struct TrackingGeometry: Sendable, Equatable {
    /// The physical screen (metres): the mouse maps the window onto it; the webcam sits on it.
    public var screen: ScreenGeometry
    /// Where the eye rests when tracking is lost, and the centre of movement scaling (metres).
    public var neutralEye: Vec3d
    /// Multiplies the head's offset from the neutral eye (1 = true parallax).
    public var movementScale: Double

    public init(screen: ScreenGeometry = .fallback, neutralEye: Vec3d = Vec3d(0, 0, 0.6), movementScale: Double = 1) {
        self.screen = screen; self.neutralEye = neutralEye; self.movementScale = movementScale
    }
}

/// The effective head-tracking settings of a run. Precedence: flag > config file > default.
public struct EffectiveTrackingSettings: Sendable, Equatable {
    /// The config file read, or nil when none was (hermetic runs: bench, export, tests).
    public var configPath: String?
    public var configFound: Bool
    /// The viewing set-up's geometry (not resolved here).
    public var geometry: TrackingGeometry
    public var cameraPosition: Resolved<Vec3d>
    public var head: Resolved<HeadSourceSpec>
    public var filter: Resolved<FilterSpec>
    public var predictMs: Resolved<Double>
    public var axisStrength: Resolved<Vec3d>
    public var opentrackAxes: Resolved<AxisMapping>
    public var opentrackOrigin: Resolved<String>
    /// The eye mono pictures are drawn for (config `dominantEye`; default the midpoint).
    public var monoEye: Resolved<MonoEye>

    /// The tracker settings these values imply.
    public var trackerSettings: HeadTrackerSettings {
        var s = HeadTrackerSettings()
        s.filter = filter.value
        // Prediction to the present time is on unless turned off (--predict off, config predictMs −1);
        // a value ≥ 0 adds that many milliseconds past the present (a display's own delay).
        s.predictionHorizon = predictMs.value < 0 ? nil : predictMs.value / 1000
        s.movementScale = geometry.movementScale
        s.axisStrength = axisStrength.value
        s.neutralEye = geometry.neutralEye
        s.monoEye = monoEye.value
        return s
    }

    /// The opentrack → screen mapping these values imply.
    public var opentrackMapping: OpentrackMapping {
        OpentrackMapping(axes: opentrackAxes.value, scale: Vec3d(repeating: 0.01),
                         offset: opentrackOrigin.value == "camera" ? cameraPosition.value : geometry.neutralEye)
    }

    /// One `(name, value, origin)` row per setting, for `splatframe config`.
    public var rows: [(name: String, value: String, origin: SettingOrigin)] {
        func n(_ d: Double) -> String { String(format: "%g", (d * 1e6).rounded() / 1e6) }
        func v(_ x: Vec3d, _ unit: Double = 1) -> String { "\(n(x.x * unit)),\(n(x.y * unit)),\(n(x.z * unit))" }
        return [
            ("camera position", v(cameraPosition.value, 1000) + " mm", cameraPosition.origin),
            ("head", head.value.description, head.origin),
            ("filter", filter.value.description, filter.origin),
            ("predict", predictMs.value < 0 ? "off" : "to the present + \(n(predictMs.value)) ms", predictMs.origin),
            ("axis strength", v(axisStrength.value), axisStrength.origin),
            ("opentrack axes", opentrackAxes.value.description, opentrackAxes.origin),
            ("opentrack origin", opentrackOrigin.value, opentrackOrigin.origin),
            ("mono eye", monoEye.value.rawValue, monoEye.origin),
        ]
    }
}

/// Resolves effective tracking settings from defaults, the config file and flags.
public enum SettingsResolver {

    /// A config file's `head`, with the command line's eye rule on a fixed eye: finite, in front
    /// of the screen (0 < Z ≤ 100 m) and within 100 m of it.
    static func configHead(_ text: String) throws -> HeadSourceSpec {
        let spec = try HeadSourceSpec(parsing: text)
        if case .fixed(let e) = spec, !(e.z > 0 && e.z <= 100 && abs(e.x) <= 100 && abs(e.y) <= 100) {
            throw HeadTrackingError.badSpec(what: "head", value: text, expected: "fixed:X,Y,Z with the eye in front of the screen, 0 < Z ≤ 100 m, |X|, |Y| ≤ 100 m")
        }
        return spec
    }
    /// Combines the sources. `config` is the file read from `configPath` (nil: none read or
    /// none there). A string-valued key that does not parse (`filter`, `head`, `opentrackAxes`)
    /// throws `HeadTrackingError.badConfig` naming the file.
    public static func resolve(config: ConfigFile?, configPath: String?, flags: HeadTrackingOptions,
                               geometry: TrackingGeometry = TrackingGeometry()) throws -> EffectiveTrackingSettings {
        let c = config ?? ConfigFile()
        func vec(_ a: [Double]?, _ scale: Double = 1) -> Vec3d? {
            guard let a, a.count == 3 else { return nil }
            return Vec3d(a[0], a[1], a[2]) * scale
        }
        func parsed<T>(_ key: String, _ s: String?, _ parse: (String) throws -> T) throws -> T? {
            guard let s else { return nil }
            do { return try parse(s) } catch {
                throw HeadTrackingError.badConfig(file: configPath ?? "config", reason: "\(key): \(error)")
            }
        }
        let cameraDefault = Vec3d(0, Double(geometry.screen.height) / 2 + 0.02, 0)
        return EffectiveTrackingSettings(
            configPath: configPath, configFound: config != nil,
            geometry: geometry,
            cameraPosition: .pick(flag: nil, file: vec(c.cameraPositionMM, 0.001), default: cameraDefault),
            head: .pick(flag: flags.requestedSource, file: try parsed("head", c.head, Self.configHead), default: .default),
            filter: .pick(flag: flags.filter, file: try parsed("filter", c.filter, FilterSpec.init(parsing:)), default: .default),
            predictMs: .pick(flag: flags.predictMs, file: c.predictMs, default: 0),
            axisStrength: .pick(flag: flags.axisStrength, file: vec(c.axisStrength), default: Vec3d(1, 1, 1)),
            opentrackAxes: .pick(flag: nil, file: try parsed("opentrackAxes", c.opentrackAxes, AxisMapping.init(parsing:)),
                                 default: OpentrackMapping.defaultAxes),
            opentrackOrigin: .pick(flag: nil, file: c.opentrackOrigin.map { $0 == "camera" ? "camera" : "centred" }, default: "centred"),
            monoEye: .pick(flag: nil, file: try parsed("dominantEye", c.dominantEye, MonoEye.init(parsing:)), default: .midpoint))
    }
}
