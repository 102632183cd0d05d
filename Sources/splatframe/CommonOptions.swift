import ArgumentParser
import Procedural
import RenderCore
import Viewer

/// Physical screen and head-to-eye mapping options shared by the window and render commands.
struct ScreenOptions: ParsableArguments {
    @Option(name: .customLong("screen-mm"), help: "Physical screen size W,H in millimetres (default: the display's, else 600,340).")
    var screenMM: String?

    @Option(help: "Multiplies the head's offset from the neutral eye (1.0 = a true window).")
    var movementScale: Double = 1.0

    /// The screen from `--screen-mm`, else `detected`, else the fallback, with where it came from.
    func screen(detected: ScreenGeometry? = nil) throws -> (ScreenGeometry, String) {
        if let s = screenMM { return (try OptionParsing.screenMillimetres(s), "--screen-mm") }
        if let d = detected { return (d, "display DPI") }
        return (.fallback, "default")
    }

    func validatedMovementScale() throws -> Float {
        guard movementScale.isFinite, movementScale >= 0, movementScale <= 20 else {
            throw ViewerError.badOption(name: "--movement-scale", value: "\(movementScale)", reason: "must be 0…20")
        }
        return Float(movementScale)
    }
}

/// Pictures and shape of the parallax-cube room.
struct RoomOptions: ParsableArguments {
    @Option(help: "Picture (PNG/JPEG) for the back wall.") var back: String?
    @Option(help: "Picture for the left wall.") var left: String?
    @Option(help: "Picture for the right wall.") var right: String?
    @Option(help: "Picture for the ceiling.") var top: String?
    @Option(help: "Picture for the floor.") var bottom: String?
    @Option(help: "Room depth behind the screen in metres (default: the screen width).") var depth: Double?
    @Flag(help: "Hide the floating targets.") var noTargets = false

    func description() throws -> SceneDescription {
        var walls: [CubeRoom.Wall: String] = [:]
        for (wall, path) in [(CubeRoom.Wall.back, back), (.left, left), (.right, right), (.top, top), (.bottom, bottom)] {
            if let path { walls[wall] = path }
        }
        let d = try depth.map { try OptionParsing.positive($0, option: "--depth") }
        return SceneDescription(kind: .cube, depth: d, walls: walls, targets: !noTargets)
    }
}

/// Window options.
struct WindowOptions: ParsableArguments {
    @Option(help: "Window size WxH in pixels.") var size: String = "1280x720"
    @Flag(help: "Start fullscreen.") var fullscreen = false
    @Option(help: "Render threads (default: one per core).") var threads: Int?
    @Option(help: "Fixed eye position X,Y,Z in metres (screen space) instead of the mouse.") var eye: String?

    func validatedThreads() throws -> Int {
        guard let t = threads else { return WorkerPool.coreCount }
        guard t >= 1, t <= 256 else { throw ViewerError.badOption(name: "--threads", value: "\(t)", reason: "must be 1…256") }
        return t
    }
}
