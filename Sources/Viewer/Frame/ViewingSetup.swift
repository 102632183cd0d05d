// ViewingSetup — the physical screen, the part of it the picture covers, the neutral eye and
// the movement scale, resolved once per run with a stated precedence and a printed origin.
import Foundation
import HeadTracking
import RenderCore
import Settings

/// How the picture relates to the physical world: the screen (metres, centred at the origin of
/// screen space in z = 0), the rectangle of it that the framebuffer spans (`viewport`: the whole
/// screen, or a window's own rectangle), the neutral eye and the movement scale.
///
/// Resolution (`resolve`): each value from its flag, else the config file, else (screen only)
/// the display's reported physical size, else the default (a 600×340 mm screen, eye at
/// (0, 0, 0.6) m, scale 1). `describe()` prints the origin of each.
public struct ViewingSetup: Sendable, Equatable {
    /// The physical screen and where its size came from.
    public var screen: Resolved<ScreenGeometry>
    /// The part of the screen plane the framebuffer spans (metres, screen space).
    public var viewport: ScreenRect
    /// Where the eye rests when tracking is lost; the centre of movement scaling (metres).
    public var neutralEye: Resolved<Vec3d>
    /// Multiplies head movement about the neutral eye (1 = a true window).
    public var movementScale: Resolved<Double>

    /// A set-up of defaults on `screen` (whole-screen viewport).
    public init(screen: ScreenGeometry = .fallback, origin: SettingOrigin = .default) {
        self.screen = Resolved(screen, origin)
        viewport = ScreenRect(screen: screen)
        neutralEye = Resolved(Vec3d(0, 0, 0.6), .default)
        movementScale = Resolved(1, .default)
    }

    /// Resolves the set-up: flag > config file > display > default for the screen (a config
    /// file giving only one of width/height keeps the other from the display or default);
    /// flag > config file > default for the movement scale and the neutral eye.
    public static func resolve(screenFlag: ScreenGeometry? = nil, movementScaleFlag: Double? = nil,
                               config: ConfigFile? = nil, display: ScreenGeometry? = nil) -> ViewingSetup {
        let c = config ?? ConfigFile()
        var screen: Resolved<ScreenGeometry>
        if let s = screenFlag {
            screen = Resolved(s, .flag)
        } else if c.screenWidthMM != nil || c.screenHeightMM != nil {
            let base = display ?? .fallback
            screen = Resolved(ScreenGeometry(width: c.screenWidthMM.map { Float($0 / 1000) } ?? base.width,
                                             height: c.screenHeightMM.map { Float($0 / 1000) } ?? base.height), .configFile)
        } else if let d = display {
            screen = Resolved(d, .display)
        } else {
            screen = Resolved(.fallback, .default)
        }
        var setup = ViewingSetup(screen: screen.value, origin: screen.origin)
        if let e = c.neutralEyeMM, e.count == 3 { setup.neutralEye = Resolved(Vec3d(e[0], e[1], e[2]) * 0.001, .configFile) }
        setup.movementScale = .pick(flag: movementScaleFlag, file: c.movementScale, default: 1)
        return setup
    }

    /// The off-axis camera for an image of `width`×`height` pixels spanning `viewport`, seen
    /// from `eye` (metres, screen space, z > 0).
    public func camera(eye: Vec3, width: Int, height: Int) -> Camera {
        OffAxisFrustum.camera(eye: eye, rect: viewport, width: width, height: height)
    }

    /// What head tracking needs to know of this set-up.
    public var trackingGeometry: TrackingGeometry {
        TrackingGeometry(screen: screen.value, neutralEye: neutralEye.value, movementScale: movementScale.value)
    }

    /// One `(name, value, origin)` row per value, for `splatframe config` and logs.
    public var rows: [(name: String, value: String, origin: SettingOrigin)] {
        func n(_ d: Double) -> String { String(format: "%g", (d * 1e6).rounded() / 1e6) }
        let s = screen.value, e = neutralEye.value
        return [
            ("screen", "\(n((Double(s.width) * 1000).rounded()))x\(n((Double(s.height) * 1000).rounded())) mm", screen.origin),
            ("neutral eye", "\(n(e.x * 1000)),\(n(e.y * 1000)),\(n(e.z * 1000)) mm", neutralEye.origin),
            ("movement scale", n(movementScale.value), movementScale.origin),
        ]
    }

    /// "screen 0.600×0.340 m (from config file)".
    public var screenDescription: String {
        String(format: "screen %.3f×%.3f m (from %@)", screen.value.width, screen.value.height, screen.origin.rawValue)
    }
}
