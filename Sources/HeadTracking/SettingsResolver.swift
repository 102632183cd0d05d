// SettingsResolver — effective head-tracking settings and where each value came from.
import Foundation
import RenderCore

/// Where an effective setting came from.
public enum SettingOrigin: String, Sendable, Equatable {
    case `default` = "default"
    case configFile = "config file"
    case flag = "flag"
    case display = "display"
}

/// A value plus its origin.
public struct Resolved<Value: Sendable & Equatable>: Sendable, Equatable {
    public var value: Value
    public var origin: SettingOrigin
    public init(_ value: Value, _ origin: SettingOrigin) { self.value = value; self.origin = origin }
}

/// The effective head-tracking settings of a run. Precedence: flag > config file >
/// display (screen size only) > default.
public struct EffectiveTrackingSettings: Sendable, Equatable {
    public var configPath: String
    public var configFound: Bool
    public var screen: Resolved<ScreenGeometry>
    public var cameraPosition: Resolved<Vec3d>
    public var neutralEye: Resolved<Vec3d>
    public var head: Resolved<HeadSourceSpec>
    public var filter: Resolved<FilterSpec>
    public var predictMs: Resolved<Double>
    public var movementScale: Resolved<Double>
    public var axisStrength: Resolved<Vec3d>
    public var opentrackAxes: Resolved<AxisMapping>
    public var opentrackOrigin: Resolved<String>

    /// The tracker settings these values imply.
    public var trackerSettings: HeadTrackerSettings {
        var s = HeadTrackerSettings()
        s.filter = filter.value
        s.predictionHorizon = predictMs.value > 0 ? predictMs.value / 1000 : nil
        s.movementScale = movementScale.value
        s.axisStrength = axisStrength.value
        s.neutralEye = neutralEye.value
        return s
    }

    /// The opentrack → screen mapping these values imply.
    public var opentrackMapping: OpentrackMapping {
        OpentrackMapping(axes: opentrackAxes.value, scale: Vec3d(repeating: 0.01),
                         offset: opentrackOrigin.value == "camera" ? cameraPosition.value : neutralEye.value)
    }

    /// One `(name, value, origin)` row per setting, for `splatframe config`.
    public var rows: [(name: String, value: String, origin: SettingOrigin)] {
        func n(_ d: Double) -> String { String(format: "%g", (d * 1e6).rounded() / 1e6) }
        func v(_ x: Vec3d, _ unit: Double = 1) -> String { "\(n(x.x * unit)),\(n(x.y * unit)),\(n(x.z * unit))" }
        return [
            ("screen", "\(n((Double(screen.value.width) * 1000).rounded()))x\(n((Double(screen.value.height) * 1000).rounded())) mm", screen.origin),
            ("camera position", v(cameraPosition.value, 1000) + " mm", cameraPosition.origin),
            ("neutral eye", v(neutralEye.value, 1000) + " mm", neutralEye.origin),
            ("head", head.value.description, head.origin),
            ("filter", filter.value.description, filter.origin),
            ("predict", "\(n(predictMs.value)) ms", predictMs.origin),
            ("movement scale", n(movementScale.value), movementScale.origin),
            ("axis strength", v(axisStrength.value), axisStrength.origin),
            ("opentrack axes", opentrackAxes.value.description, opentrackAxes.origin),
            ("opentrack origin", opentrackOrigin.value, opentrackOrigin.origin),
        ]
    }
}

/// Resolves effective settings from defaults, the config file, the display and flags.
public enum SettingsResolver {
    /// Combines the sources. `screenFlag` is a `--screen` size from the command line (if the
    /// executable has one); `displayScreen` is the size the display reports (if any).
    /// Config values were validated when loading, so parse failures here fall back to defaults.
    public static func resolve(config: TrackingConfig?, configPath: String, flags: HeadTrackingOptions,
                               screenFlag: ScreenGeometry? = nil, displayScreen: ScreenGeometry? = nil) -> EffectiveTrackingSettings {
        let c = config ?? TrackingConfig()
        func pick<T>(_ flag: T?, _ file: T?, _ def: T) -> Resolved<T> {
            if let flag { return Resolved(flag, .flag) }
            if let file { return Resolved(file, .configFile) }
            return Resolved(def, .default)
        }
        func vec(_ a: [Double]?, _ scale: Double = 1) -> Vec3d? {
            guard let a, a.count == 3 else { return nil }
            return Vec3d(a[0], a[1], a[2]) * scale
        }
        var screen: Resolved<ScreenGeometry>
        if let s = screenFlag { screen = Resolved(s, .flag) }
        else if c.screenWidthMM != nil || c.screenHeightMM != nil {
            let base = displayScreen ?? .fallback
            screen = Resolved(ScreenGeometry(width: c.screenWidthMM.map { Float($0 / 1000) } ?? base.width,
                                             height: c.screenHeightMM.map { Float($0 / 1000) } ?? base.height), .configFile)
        } else if let d = displayScreen { screen = Resolved(d, .display) }
        else { screen = Resolved(.fallback, .default) }

        let cameraDefault = Vec3d(0, Double(screen.value.height) / 2 + 0.02, 0)
        return EffectiveTrackingSettings(
            configPath: configPath, configFound: config != nil,
            screen: screen,
            cameraPosition: pick(nil, vec(c.cameraPositionMM, 0.001), cameraDefault),
            neutralEye: pick(nil, vec(c.neutralEyeMM, 0.001), Vec3d(0, 0, 0.6)),
            head: pick(flags.requestedSource, c.head.flatMap { try? HeadSourceSpec(parsing: $0) }, .default),
            filter: pick(flags.filter, c.filter.flatMap { try? FilterSpec(parsing: $0) }, .default),
            predictMs: pick(flags.predictMs, c.predictMs, 0),
            movementScale: pick(flags.movementScale, c.movementScale, 1),
            axisStrength: pick(flags.axisStrength, vec(c.axisStrength), Vec3d(1, 1, 1)),
            opentrackAxes: pick(nil, c.opentrackAxes.flatMap { try? AxisMapping(parsing: $0) }, OpentrackMapping.defaultAxes),
            opentrackOrigin: pick(nil, c.opentrackOrigin.map { $0 == "camera" ? "camera" : "centred" }, "centred"))
    }
}
