/// A plain 8-bit RGBA picture (sRGB-encoded), packed like `Framebuffer` pixels, (0, 0) top-left.
public struct RGBAImage: Equatable, Sendable {
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int
    /// `width * height` packed pixels (see `PackedColor`).
    public var pixels: [UInt32]

    /// Wraps existing pixels. - Precondition: `pixels.count == width * height`.
    public init(width: Int, height: Int, pixels: [UInt32]) {
        precondition(pixels.count == width * height, "pixel count does not match size")
        self.width = width; self.height = height; self.pixels = pixels
    }

    /// A picture filled with one colour.
    public init(width: Int, height: Int, fill: UInt32) {
        self.init(width: width, height: height, pixels: [UInt32](repeating: fill, count: width * height))
    }

    /// Pixel access (no bounds check beyond the array's).
    public subscript(x: Int, y: Int) -> UInt32 {
        get { pixels[y * width + x] }
        set { pixels[y * width + x] = newValue }
    }
}
