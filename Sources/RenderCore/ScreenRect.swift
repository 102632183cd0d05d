/// An axis-aligned rectangle in the screen plane z = 0 of screen space (metres; x right, y up):
/// the part of the physical screen a picture spans — the whole screen when fullscreen, a
/// window's own rectangle otherwise. Kooima's screen corners are this rectangle's corners.
public struct ScreenRect: Equatable, Sendable, Codable {
    /// Left, right, bottom and top edges in metres.
    public var minX: Float, maxX: Float, minY: Float, maxY: Float

    /// A rectangle from its edges (metres).
    public init(minX: Float, maxX: Float, minY: Float, maxY: Float) {
        self.minX = minX; self.maxX = maxX; self.minY = minY; self.maxY = maxY
    }

    /// The whole physical screen, centred at the origin.
    public init(screen: ScreenGeometry) {
        self.init(minX: -screen.width / 2, maxX: screen.width / 2, minY: -screen.height / 2, maxY: screen.height / 2)
    }

    /// Width in metres.
    public var width: Float { maxX - minX }
    /// Height in metres.
    public var height: Float { maxY - minY }
    /// The centre point (metres).
    public var center: SIMD2<Float> { SIMD2((minX + maxX) / 2, (minY + maxY) / 2) }
}
