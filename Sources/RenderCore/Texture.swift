/// A texture: an `RGBAImage` and its mipmap chain (each level half the size, 2×2 box filter),
/// sampled with texture coordinates u right, v up (v = 0 is the image's bottom row, as OBJ and
/// OpenGL expect), repeating outside [0, 1].
///
/// All levels live in one block allocated at creation and never changed, so renderers read
/// them through raw pointers from any thread with no reference counting in their loops.
/// Each level is stored with one extra column and row that repeat its first column and row
/// (row stride `width + 1`), so a bilinear footprint (x, x+1) × (y, y+1) never wraps in memory
/// and the right-hand pair of texels can be loaded as one 64-bit value.
public final class Texture: @unchecked Sendable {
    /// One mip level inside the texture's storage.
    public struct Level: Sendable {
        /// Width in texels.
        public let width: Int
        /// Height in texels.
        public let height: Int
        /// Offset of the level's first texel (top-left) in `texels`.
        public let offset: Int
        /// Texels from one row to the next (`width + 1`).
        public var stride: Int { width + 1 }
    }

    /// Mip levels, level 0 the full-size picture, the last 1×1.
    public let levels: [Level]
    /// Packed RGBA texels of every level, top-left first per level.
    public let texels: UnsafeMutablePointer<UInt32>
    /// Total number of texels in `texels`.
    public let texelCount: Int
    /// The same as `levels`, in raw memory for renderers' inner loops.
    public let levelTable: UnsafeMutablePointer<Level>

    /// Builds the texture and its mipmap chain from a picture.
    public init(_ image: RGBAImage) {
        var pictures = [image]
        var cur = image
        while cur.width > 1 || cur.height > 1 {
            cur = Texture.halve(cur)
            pictures.append(cur)
        }
        var levels: [Level] = []
        var total = 0
        for p in pictures {
            levels.append(Level(width: p.width, height: p.height, offset: total))
            total += (p.width + 1) * (p.height + 1)
        }
        let storage = UnsafeMutablePointer<UInt32>.allocate(capacity: total)
        for (p, l) in zip(pictures, levels) {
            p.pixels.withUnsafeBufferPointer { src in
                for y in 0...p.height {
                    let row = storage + l.offset + y * l.stride
                    let srcRow = src.baseAddress! + (y % p.height) * p.width
                    row.initialize(from: srcRow, count: p.width)
                    row[p.width] = srcRow[0]
                }
            }
        }
        texels = storage
        texelCount = total
        self.levels = levels
        levelTable = .allocate(capacity: levels.count)
        levelTable.initialize(from: levels, count: levels.count)
    }

    deinit { texels.deallocate(); levelTable.deallocate() }

    /// Width of level 0 in texels.
    public var width: Int { levels[0].width }
    /// Height of level 0 in texels.
    public var height: Int { levels[0].height }

    /// Level `i` as a picture (a copy).
    public func image(level i: Int) -> RGBAImage {
        let l = levels[i]
        var pixels: [UInt32] = []
        pixels.reserveCapacity(l.width * l.height)
        for y in 0..<l.height {
            pixels += UnsafeBufferPointer(start: texels + l.offset + y * l.stride, count: l.width)
        }
        return RGBAImage(width: l.width, height: l.height, pixels: pixels)
    }

    /// 2×2 box filter (clamping at odd edges).
    static func halve(_ src: RGBAImage) -> RGBAImage {
        let w = max(1, src.width / 2), h = max(1, src.height / 2)
        var out = [UInt32](repeating: 0, count: w * h)
        for y in 0..<h {
            let y0 = min(2 * y, src.height - 1), y1 = min(2 * y + 1, src.height - 1)
            for x in 0..<w {
                let x0 = min(2 * x, src.width - 1), x1 = min(2 * x + 1, src.width - 1)
                let s = SIMD4<UInt32>(truncatingIfNeeded: PackedColor.channels(src[x0, y0]))
                    &+ SIMD4<UInt32>(truncatingIfNeeded: PackedColor.channels(src[x1, y0]))
                    &+ SIMD4<UInt32>(truncatingIfNeeded: PackedColor.channels(src[x0, y1]))
                    &+ SIMD4<UInt32>(truncatingIfNeeded: PackedColor.channels(src[x1, y1])) &+ 2
                let q = s / 4
                out[y * w + x] = q.x | q.y << 8 | q.z << 16 | q.w << 24
            }
        }
        return RGBAImage(width: w, height: h, pixels: out)
    }
}
