// RenderOptions — the option groups every rendering command shares, each declared once:
// threads, image size, eye, camera JSON, screen size, config file.
import ArgumentParser
import Foundation
import RenderCore
import Settings
import Viewer
import Workers

/// `--threads T`: render threads (window, render, bench, export, library).
struct ThreadsOption: ParsableArguments {
    @Option(parsing: .unconditional, help: "Render threads, 1…256 (default: one per core).", transform: Checked.integer(in: 1...256, "threads"))
    var threads: Int?

    /// The threads to use: the flag's, else one per core.
    var count: Int { threads ?? CoreCount.available }
}

/// `--size WxH`: the window's or the image's size in pixels.
struct SizeOption: ParsableArguments {
    @Option(help: "Window or image size WxH in pixels (default 1280x720; with --camera, the camera's).")
    var size: PixelSize?

    /// The flag's size, else 1280×720.
    var value: PixelSize { size ?? PixelSize(width: 1280, height: 720) }
}

/// `--eye X,Y,Z`: a fixed eye in screen space.
struct EyeOption: ParsableArguments {
    @Option(help: "Fixed eye position X,Y,Z in metres (screen space, 0 < Z ≤ 100, e.g. -0.05,0,0.6); in the window it overrides --head.")
    var eye: EyePoint?
}

/// `--camera CAM.json`: the scene in its own coordinates, as the camera file's matrices say.
struct CameraOption: ParsableArguments {
    @Option(help: "Camera JSON {width, height, view[16], projection[16], background[3]}: the scene in its own coordinates.")
    var camera: String?
}

/// `--screen-mm W,H`: the physical screen size.
struct ScreenOptions: ParsableArguments {
    @Option(name: .customLong("screen-mm"), help: "Physical screen size W,H in millimetres, 10…20000 each (default: the config file's, the display's, else 600,340).")
    var screenMM: ScreenMillimetres?

    /// The flag's screen, if given.
    func flag() -> ScreenGeometry? { screenMM?.geometry }
}

/// `--config FILE`. The window reads the user's config file (this flag, else the XDG default);
/// `render`, `bench` and `export` are hermetic: they read a config file only when this flag names one.
struct ConfigOption: ParsableArguments {
    @Option(help: "Config file (window default: $XDG_CONFIG_HOME/splatframe/config.json; render/bench/export read one only when given).")
    var config: String?

    init() {}
    init(config: String?) { self.config = config }

    /// For interactive commands: the named file (which must exist, unless `creating`: commands
    /// that save calibration may start a new file) or the XDG default (which may not).
    func interactive(creating: Bool = false) throws -> (file: ConfigFile?, path: String) {
        if let config { return (creating ? try ConfigFile.load(path: config) : try ConfigFile.loadRequired(path: config), config) }
        let path = ConfigFile.defaultPath()
        return (try ConfigFile.load(path: path), path)
    }

    /// The interactive config file, for settings taken before the window opens (which reports a
    /// missing or invalid one): nil when there is none or it is invalid.
    var fileIfValid: ConfigFile? { (try? interactive())?.file }

    /// For hermetic commands: the named file, or nothing at all.
    func hermetic() throws -> (file: ConfigFile?, path: String?) {
        guard let config else { return (nil, nil) }
        return (try ConfigFile.loadRequired(path: config), config)
    }
}

/// `--stereo MODE` and `--ipd MM` for the window and `render`.
struct StereoOptions: ParsableArguments {
    @Option(help: "Stereo: anaglyph is red/cyan (Dubois), anaglyph:plain the plain channel split, sbs full side by side, hsbs half side by side.")
    var stereo: StereoMode?
    @Option(parsing: .unconditional, help: "Inter-pupillary distance in millimetres for stereo, 40…90 (default 63), where the tracker does not measure both eyes.",
            transform: Checked.number(in: 40...90, "mm"))
    var ipd: Double = 63

    /// The mode (nil: mono) and the IPD in metres.
    var resolved: (mode: StereoMode, ipd: Double)? { stereo.map { ($0, ipd / 1000) } }
}
