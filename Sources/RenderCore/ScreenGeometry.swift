/// The physical screen the viewer looks through: a `width`×`height` metre rectangle centred
/// at the origin of screen space in the plane z = 0 (x right, y up, +z toward the viewer).
public struct ScreenGeometry: Equatable, Sendable, Codable {
    /// Physical width in metres.
    public var width: Float
    /// Physical height in metres.
    public var height: Float

    /// Creates a screen of the given physical size in metres.
    public init(width: Float, height: Float) {
        self.width = width; self.height = height
    }

    /// The fallback when neither the command line nor the display reports a size: a 27" 16:9 monitor.
    public static let fallback = ScreenGeometry(width: 0.60, height: 0.34)

    /// Width / height.
    public var aspect: Float { width / height }
}
