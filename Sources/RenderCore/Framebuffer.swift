/// A colour + depth render target owned by one renderer at a time.
///
/// Colour is 8-bit RGBA, sRGB-encoded, packed in a `UInt32` per pixel so that the bytes in
/// memory read R, G, B, A (SDL's `SDL_PIXELFORMAT_RGBA32`). Depth is the camera-space
/// distance along −Z in metres, `+infinity` where nothing was drawn. Pixel (0, 0) is the
/// top-left; rows are `width` pixels apart. Storage is allocated once and reused across frames.
public final class Framebuffer {
    /// Width in pixels.
    public private(set) var width: Int
    /// Height in pixels.
    public private(set) var height: Int
    /// Packed RGBA pixels, row-major from the top-left.
    public private(set) var color: UnsafeMutablePointer<UInt32>
    /// Camera-space depth per pixel (metres along −Z); +inf = empty.
    public private(set) var depth: UnsafeMutablePointer<Float>

    /// Allocates a `width`×`height` target (both at least 1).
    public init(width: Int, height: Int) {
        self.width = max(1, width); self.height = max(1, height)
        color = .allocate(capacity: self.width * self.height)
        depth = .allocate(capacity: self.width * self.height)
        clear(color: 0xFF00_0000)
    }

    deinit {
        color.deallocate()
        depth.deallocate()
    }

    /// Number of pixels.
    @inlinable public var pixelCount: Int { width * height }

    /// Changes the size, reallocating only when it differs. Contents are undefined afterwards.
    public func resize(width w: Int, height h: Int) {
        let w = max(1, w), h = max(1, h)
        guard w != width || h != height else { return }
        color.deallocate(); depth.deallocate()
        width = w; height = h
        color = .allocate(capacity: w * h)
        depth = .allocate(capacity: w * h)
    }

    /// Fills colour with `color` and depth with +infinity.
    public func clear(color c: UInt32) {
        color.update(repeating: c, count: pixelCount)
        depth.update(repeating: .infinity, count: pixelCount)
    }

    /// Fills colour with a background colour given as linear 0…1 RGB (written straight to 8 bits).
    public func clear(background: Vec3) { clear(color: PackedColor.pack(Vec4(background.x, background.y, background.z, 1))) }

    /// The colour at (x, y) as a packed RGBA value.
    @inlinable public func pixel(x: Int, y: Int) -> UInt32 { color[y * width + x] }

    /// A copy of the colour buffer.
    public var colorArray: [UInt32] { Array(UnsafeBufferPointer(start: color, count: pixelCount)) }
    /// A copy of the depth buffer.
    public var depthArray: [Float] { Array(UnsafeBufferPointer(start: depth, count: pixelCount)) }

    /// The colour buffer as an `RGBAImage`.
    public func image() -> RGBAImage { RGBAImage(width: width, height: height, pixels: colorArray) }
}

/// Packing of RGBA colours into the `UInt32` layout of `Framebuffer` and `RGBAImage`
/// (little-endian: R in the low byte).
public enum PackedColor {
    /// Packs 0…1 components, rounding to nearest and clamping.
    @inlinable @inline(__always) public static func pack(_ c: Vec4) -> UInt32 {
        let s = (c * 255 + 0.5)
        let r = UInt32(min(max(s.x, 0), 255)), g = UInt32(min(max(s.y, 0), 255))
        let b = UInt32(min(max(s.z, 0), 255)), a = UInt32(min(max(s.w, 0), 255))
        return r | g << 8 | b << 16 | a << 24
    }

    /// Packs 8-bit components.
    @inlinable @inline(__always) public static func pack(r: UInt8, g: UInt8, b: UInt8, a: UInt8 = 255) -> UInt32 {
        UInt32(r) | UInt32(g) << 8 | UInt32(b) << 16 | UInt32(a) << 24
    }

    /// Unpacks to 0…1 components.
    @inlinable @inline(__always) public static func unpack(_ p: UInt32) -> Vec4 {
        Vec4(Float(p & 0xFF), Float(p >> 8 & 0xFF), Float(p >> 16 & 0xFF), Float(p >> 24)) / 255
    }

    /// The 8-bit channels (r, g, b, a).
    @inlinable @inline(__always) public static func channels(_ p: UInt32) -> SIMD4<UInt8> {
        SIMD4<UInt8>(UInt8(p & 0xFF), UInt8(p >> 8 & 0xFF), UInt8(p >> 16 & 0xFF), UInt8(p >> 24))
    }
}
