// TrackingConfig — the calibration file `$XDG_CONFIG_HOME/splatframe/config.json`.
import Foundation

/// The user's calibration, read from `$XDG_CONFIG_HOME/splatframe/config.json` (or
/// `~/.config/splatframe/config.json`). Every key is optional; a missing file means
/// defaults. Example:
/// ```json
/// { "screenWidthMM": 597, "screenHeightMM": 336,
///   "cameraPositionMM": [0, 180, 10],
///   "opentrackAxes": "x,y,-z", "opentrackOrigin": "centred",
///   "filter": "oneeuro:0.3,20,1", "predictMs": 0,
///   "movementScale": 1.0, "axisStrength": [1, 1, 1],
///   "neutralEyeMM": [0, 0, 600], "head": "mouse" }
/// ```
/// - `screenWidthMM`/`screenHeightMM`: the physical screen (millimetres).
/// - `cameraPositionMM`: the tracking camera relative to the screen centre (mm, screen axes).
/// - `opentrackAxes`: signed axis mapping opentrack → screen (default `x,y,-z`).
/// - `opentrackOrigin`: `centred` (opentrack's zero = the neutral eye; default) or `camera`
///   (opentrack reports positions relative to the camera, which sits at `cameraPositionMM`).
public struct TrackingConfig: Codable, Equatable, Sendable {
    public var screenWidthMM: Double?
    public var screenHeightMM: Double?
    public var cameraPositionMM: [Double]?
    public var opentrackAxes: String?
    public var opentrackOrigin: String?
    public var filter: String?
    public var predictMs: Double?
    public var movementScale: Double?
    public var axisStrength: [Double]?
    public var neutralEyeMM: [Double]?
    public var head: String?

    /// An empty config (all defaults).
    public init() {}

    /// `$XDG_CONFIG_HOME/splatframe/config.json`, else `$HOME/.config/splatframe/config.json`.
    public static func defaultPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let x = environment["XDG_CONFIG_HOME"], !x.isEmpty { return x + "/splatframe/config.json" }
        let home = environment["HOME"] ?? NSHomeDirectory()
        return home + "/.config/splatframe/config.json"
    }

    /// Loads `path`; nil when the file does not exist, `HeadTrackingError.badConfig` when it is invalid.
    public static func load(path: String) throws -> TrackingConfig? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw HeadTrackingError.badConfig(file: path, reason: "cannot read file")
        }
        do {
            let c = try JSONDecoder().decode(TrackingConfig.self, from: data)
            try c.validate(file: path)
            return c
        } catch let e as HeadTrackingError {
            throw e
        } catch {
            throw HeadTrackingError.badConfig(file: path, reason: Self.describe(error))
        }
    }

    /// Checks ranges and parses the string-valued settings.
    public func validate(file: String) throws {
        func fail(_ r: String) -> HeadTrackingError { .badConfig(file: file, reason: r) }
        if let w = screenWidthMM, !(w > 0 && w.isFinite) { throw fail("screenWidthMM must be > 0") }
        if let h = screenHeightMM, !(h > 0 && h.isFinite) { throw fail("screenHeightMM must be > 0") }
        for (k, v) in [("cameraPositionMM", cameraPositionMM), ("axisStrength", axisStrength), ("neutralEyeMM", neutralEyeMM)] {
            if let v, v.count != 3 || !v.allSatisfy(\.isFinite) { throw fail("\(k) must be three numbers") }
        }
        if let o = opentrackOrigin, o != "centred", o != "centered", o != "camera" {
            throw fail("opentrackOrigin must be \"centred\" or \"camera\"")
        }
        do {
            if let a = opentrackAxes { _ = try AxisMapping(parsing: a) }
            if let f = filter { _ = try FilterSpec(parsing: f) }
            if let h = head { _ = try HeadSourceSpec(parsing: h) }
        } catch { throw fail("\(error)") }
        if let p = predictMs, !(p >= 0 && p <= 1000) { throw fail("predictMs must be 0…1000") }
        if let m = movementScale, !(m >= 0 && m.isFinite) { throw fail("movementScale must be ≥ 0") }
    }

    private static func describe(_ error: Error) -> String {
        switch error {
        case DecodingError.typeMismatch(_, let c), DecodingError.valueNotFound(_, let c):
            return "wrong type at '\(c.codingPath.map(\.stringValue).joined(separator: "."))'"
        case DecodingError.dataCorrupted(let c):
            return "not valid JSON (\(c.debugDescription))"
        default: return "\(error)"
        }
    }
}
