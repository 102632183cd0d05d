/// A texture: an `RGBAImage` and its mipmap chain (each level half the size, box-filtered),
/// sampled with texture coordinates u right, v up (v = 0 is the image's bottom row, as OBJ and
/// OpenGL expect). Immutable once built, so renderers share it across threads.
public final class Texture: Sendable {
    /// Mip levels, level 0 the full-size picture, the last 1×1.
    public let levels: [RGBAImage]

    /// Builds the texture and its mipmap chain from a picture.
    public init(_ image: RGBAImage) {
        var levels = [image]
        var cur = image
        while cur.width > 1 || cur.height > 1 {
            cur = Texture.halve(cur)
            levels.append(cur)
        }
        self.levels = levels
    }

    /// Width of level 0 in texels.
    public var width: Int { levels[0].width }
    /// Height of level 0 in texels.
    public var height: Int { levels[0].height }

    /// 2×2 box filter (clamping at odd edges).
    static func halve(_ src: RGBAImage) -> RGBAImage {
        let w = max(1, src.width / 2), h = max(1, src.height / 2)
        var out = [UInt32](repeating: 0, count: w * h)
        for y in 0..<h {
            let y0 = min(2 * y, src.height - 1), y1 = min(2 * y + 1, src.height - 1)
            for x in 0..<w {
                let x0 = min(2 * x, src.width - 1), x1 = min(2 * x + 1, src.width - 1)
                let a = PackedColor.channels(src[x0, y0]), b = PackedColor.channels(src[x1, y0])
                let c = PackedColor.channels(src[x0, y1]), d = PackedColor.channels(src[x1, y1])
                let s = SIMD4<UInt32>(truncatingIfNeeded: a) &+ SIMD4<UInt32>(truncatingIfNeeded: b)
                    &+ SIMD4<UInt32>(truncatingIfNeeded: c) &+ SIMD4<UInt32>(truncatingIfNeeded: d) &+ 2
                let q = s / 4
                out[y * w + x] = q.x | q.y << 8 | q.z << 16 | q.w << 24
            }
        }
        return RGBAImage(width: w, height: h, pixels: out)
    }
}
