// Settings — ConfigFile: the user's calibration and preferences, `config.json`.
import Foundation
import JSONInput

/// The user's config file, `$XDG_CONFIG_HOME/splatframe/config.json` (else
/// `~/.config/splatframe/config.json`). Every key is optional; a missing file means defaults.
/// ```json
/// { "screenWidthMM": 597, "screenHeightMM": 336,
///   "cameraPositionMM": [0, 180, 10], "cameraFovDeg": 60, "ipdMM": 63,
///   "opentrackAxes": "x,y,-z", "opentrackOrigin": "centred",
///   "filter": "oneeuro:0.3,20,1", "predictMs": 0,
///   "movementScale": 1.0, "axisStrength": [1, 1, 1],
///   "neutralEyeMM": [0, 0, 600], "head": "mouse", "streamTimeoutS": 3 }
/// ```
/// - `screenWidthMM`/`screenHeightMM`: the physical screen (millimetres).
/// - `cameraPositionMM`: the tracking camera relative to the screen centre (mm, screen axes).
/// - `cameraFovDeg` / `cameraFocalPx`: the webcam's horizontal field of view, or its
///   calibrated focal length in pixels at 640 px width (wins over the field of view).
/// - `ipdMM`: the viewer's inter-pupillary distance (calibrated; default 63).
/// - `opentrackAxes`: signed axis mapping opentrack → screen (default `x,y,-z`).
/// - `opentrackOrigin`: `centred` (opentrack's zero = the neutral eye; default) or `camera`.
/// - `dominantEye`: `left` or `right` draws a mono picture for that eye (the webcam measures
///   both), `none` (default) for the midpoint between them.
/// - `streamTimeoutS`: how long a network camera may take to open and to send each frame
///   (seconds, 0.5…60; default 3) before it counts as lost and is reconnected.
/// - `cameraDelayMs`: a camera frame's exposure → the moment its read returns (milliseconds,
///   0…1000), for cameras whose driver gives no time stamp and for streams (default: one frame
///   interval for a camera, 0 for a stream).
/// - `targetFps`: the window's target frame rate (1…1000).
/// - `downloadCacheLimitMB`: most megabytes the download cache holds, a whole number 1…16777216
///   (default 10240); least recently used downloads go first (`--download-cache-limit-mb` wins).
/// String-valued keys (`filter`, `head`, `opentrackAxes`) are parsed by the module that uses
/// them, which reports a bad value as an invalid config naming this file.
public struct ConfigFile: Equatable, Sendable {
    public var screenWidthMM: Double?
    public var screenHeightMM: Double?
    public var cameraPositionMM: [Double]?
    public var cameraFovDeg: Double?
    public var cameraFocalPx: Double?
    public var ipdMM: Double?
    public var opentrackAxes: String?
    public var opentrackOrigin: String?
    public var filter: String?
    public var predictMs: Double?
    public var movementScale: Double?
    public var axisStrength: [Double]?
    public var neutralEyeMM: [Double]?
    public var head: String?
    /// Seconds a network camera (`webcam:URL`) may take to open and to deliver each frame.
    public var streamTimeoutS: Double?
    /// Exposure → read returned of a camera frame the back end does not stamp (milliseconds).
    public var cameraDelayMs: Double?
    /// `left` or `right`: draw mono pictures for that eye (measured by the webcam), else the midpoint.
    public var dominantEye: String?
    /// The window's target frame rate (fps, 1…1000): the frame-time governor holds it with a
    /// capture's splat budget. Default: the display's refresh rate, at most 60.
    public var targetFps: Double?
    /// Most megabytes (2^20 bytes) the download cache may hold; least recently used downloads go first.
    public var downloadCacheLimitMB: Double?

    /// An empty config (all defaults).
    public init() {}

    /// `$XDG_CONFIG_HOME/splatframe/config.json`, else `$HOME/.config/splatframe/config.json`.
    public static func defaultPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let x = environment["XDG_CONFIG_HOME"], !x.isEmpty { return x + "/splatframe/config.json" }
        let home = environment["HOME"] ?? NSHomeDirectory()
        return home + "/.config/splatframe/config.json"
    }

    /// Loads `path`; nil when the file does not exist, `SettingsError.badConfig` when it is invalid.
    public static func load(path: String) throws -> ConfigFile? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw SettingsError.badConfig(file: path, reason: "cannot read file")
        }
        guard data.count <= 1 << 20 else { throw SettingsError.badConfig(file: path, reason: "larger than 1 MiB") }
        do {
            let c = try parse(JSONNode.parse(data))
            try c.validate(file: path)
            return c
        } catch let e as JSONPathError {
            throw SettingsError.badConfig(file: path, reason: e.description)
        }
    }

    /// Reads the known keys of a parsed config (unknown keys are kept by `update` and ignored
    /// here); a key of the wrong type throws naming it.
    static func parse(_ root: JSONNode) throws -> ConfigFile {
        _ = try root.members()
        func number(_ key: String) throws -> Double? { try root.optional(key).map { try $0.number() } }
        func text(_ key: String) throws -> String? { try root.optional(key).map { try $0.string() } }
        func triple(_ key: String) throws -> [Double]? { try root.optional(key).map { try $0.numbers(3) } }
        var c = ConfigFile()
        c.screenWidthMM = try number("screenWidthMM"); c.screenHeightMM = try number("screenHeightMM")
        c.cameraPositionMM = try triple("cameraPositionMM")
        c.cameraFovDeg = try number("cameraFovDeg"); c.cameraFocalPx = try number("cameraFocalPx")
        c.ipdMM = try number("ipdMM")
        c.opentrackAxes = try text("opentrackAxes"); c.opentrackOrigin = try text("opentrackOrigin")
        c.filter = try text("filter"); c.predictMs = try number("predictMs")
        c.movementScale = try number("movementScale")
        c.axisStrength = try triple("axisStrength"); c.neutralEyeMM = try triple("neutralEyeMM")
        c.head = try text("head")
        c.streamTimeoutS = try number("streamTimeoutS")
        c.cameraDelayMs = try number("cameraDelayMs")
        c.dominantEye = try text("dominantEye")
        c.targetFps = try number("targetFps")
        c.downloadCacheLimitMB = try number("downloadCacheLimitMB")
        return c
    }

    /// Loads a config file the user named (`--config FILE`): a missing file is an error here.
    public static func loadRequired(path: String) throws -> ConfigFile {
        guard let c = try load(path: path) else { throw SettingsError.badConfig(file: path, reason: "no such file") }
        return c
    }

    /// Checks ranges and shapes of the numeric keys.
    public func validate(file: String) throws {
        func fail(_ r: String) -> SettingsError { .badConfig(file: file, reason: r) }
        for (k, v) in [("screenWidthMM", screenWidthMM), ("screenHeightMM", screenHeightMM), ("ipdMM", ipdMM),
                       ("cameraFocalPx", cameraFocalPx)] {
            if let v, !(v > 0 && v.isFinite) { throw fail("\(k) must be > 0") }
        }
        if let f = cameraFovDeg, !(f > 5 && f < 170) { throw fail("cameraFovDeg must be 5…170") }
        for (k, v) in [("cameraPositionMM", cameraPositionMM), ("axisStrength", axisStrength), ("neutralEyeMM", neutralEyeMM)] {
            if let v, v.count != 3 || !v.allSatisfy(\.isFinite) { throw fail("\(k) must be three numbers") }
        }
        if let o = opentrackOrigin, o != "centred", o != "centered", o != "camera" {
            throw fail("opentrackOrigin must be \"centred\" or \"camera\"")
        }
        if let p = predictMs, !(p == -1 || (p >= 0 && p <= 1000)) { throw fail("predictMs must be 0…1000, or -1 (no prediction)") }
        if let m = movementScale, !(m >= 0 && m.isFinite) { throw fail("movementScale must be ≥ 0") }
        if let s = streamTimeoutS, !(s >= 0.5 && s <= 60) { throw fail("streamTimeoutS must be 0.5…60") }
        if let d = cameraDelayMs, !(d >= 0 && d <= 1000) { throw fail("cameraDelayMs must be 0…1000") }
        if let f = targetFps, !(f >= 1 && f <= 1000) { throw fail("targetFps must be 1…1000") }
        if let m = downloadCacheLimitMB, !(m >= 1 && m <= Double(1 << 24) && m.rounded() == m) {
            throw fail("downloadCacheLimitMB must be a whole number of megabytes, 1…\(1 << 24)")
        }
    }

    /// Writes `changes` into the file at `path`, keeping every other key (including keys this
    /// build does not know); creates the folder and the file when missing. Returns the path.
    @discardableResult
    public static func update(path: String, _ changes: [String: Any]) throws -> String {
        var object: [String: Any] = [:]
        if FileManager.default.fileExists(atPath: path) {
            _ = try load(path: path)   // refuse to rewrite a file we cannot read as a config
            if let data = FileManager.default.contents(atPath: path),
               let o = try? JSONSerialization.jsonObject(with: data) as? [String: Any] { object = o }
        }
        for (k, v) in changes { object[k] = v }
        do {
            let dir = (path as NSString).deletingLastPathComponent
            if !dir.isEmpty { try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true) }
            let data = try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys])
            try data.write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw SettingsError.writeFailed(file: path, reason: (error as NSError).localizedDescription)
        }
        return path
    }
}
