/// A texture: an `RGBAImage` and its mipmap chain (each level half the size, 2×2 box filter),
/// sampled with texture coordinates u right, v up (v = 0 is the image's bottom row, as OBJ and
/// OpenGL expect), repeating outside [0, 1].
///
/// All levels live in one block allocated at creation and never reallocated, so renderers read
/// them through raw pointers from any thread with no reference counting in their loops. A
/// video wall rewrites them in place between frames (`update(rgb:rowBytes:)`, allocation-free).
/// Each level is stored with one extra column and row that repeat its first column and row
/// (row stride `width + 1`), so a bilinear footprint (x, x+1) × (y, y+1) never wraps in memory
/// and the right-hand pair of texels can be loaded as one 64-bit value.
public final class Texture: Sendable {
    /// One mip level inside the texture's storage.
    public struct Level: Sendable, BitwiseCopyable {
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
    @inlinable public var texels: UnsafeMutablePointer<UInt32> { texelStorage.base }
    /// Total number of texels in `texels`.
    public let texelCount: Int
    /// The same as `levels`, in raw memory for renderers' inner loops.
    @inlinable public var levelTable: UnsafeMutablePointer<Level> { levelStorage.base }
    /// `texels` and `levelTable`: written only by `update`/`rebuildMipmaps` between frames.
    @usableFromInline let texelStorage: SharedPointer<UInt32>
    @usableFromInline let levelStorage: SharedPointer<Level>

    /// An opaque black texture of `width`×`height` texels (at least 1×1) and its full mip
    /// chain, to be filled with `update(rgb:rowBytes:)` or `update(_:)`.
    public init(width: Int, height: Int) {
        var levels: [Level] = []
        var total = 0
        var w = max(1, width), h = max(1, height)
        while true {
            levels.append(Level(width: w, height: h, offset: total))
            total += (w + 1) * (h + 1)
            if w == 1 && h == 1 { break }
            w = max(1, w / 2); h = max(1, h / 2)
        }
        let storage = SharedPointer<UInt32>.allocate(capacity: total)
        storage.base.initialize(repeating: 0xFF00_0000, count: total)
        texelStorage = storage
        texelCount = total
        self.levels = levels
        levelStorage = .allocate(capacity: levels.count)
        levelStorage.base.initialize(from: levels, count: levels.count)
    }

    /// Builds the texture and its mipmap chain from a picture.
    public convenience init(_ image: RGBAImage) {
        self.init(width: image.width, height: image.height)
        update(image)
    }

    deinit { texelStorage.deallocate(); levelStorage.deallocate() }

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

    // MARK: In-place updates (video textures)
    //
    // These write the texels renderers read without synchronisation: call them between frames
    // (a scene's `advance`), never while a frame is being drawn. None allocates.

    /// Replaces level 0 with `image` (same size as the texture) and rebuilds the mip chain.
    public func update(_ image: RGBAImage) {
        precondition(image.width == width && image.height == height, "Texture.update: size differs")
        let l = levels[0]
        image.pixels.withUnsafeBufferPointer { src in
            for y in 0..<l.height {
                let row = texels + l.offset + y * l.stride
                row.update(from: src.baseAddress! + y * l.width, count: l.width)
                row[l.width] = row[0]
            }
        }
        finishLevel(0)
        rebuildMipmaps()
    }

    /// Replaces level 0 with 8-bit RGB rows (R, G, B bytes, `rowBytes` apart, the texture's size;
    /// alpha 255) and rebuilds the mip chain. Allocation-free; O(width·height).
    public func update(rgb: UnsafePointer<UInt8>, rowBytes: Int) {
        let l = levels[0]
        for y in 0..<l.height {
            let src = UnsafeRawPointer(rgb + y &* rowBytes)
            let row = texels + l.offset + y &* l.stride
            var x = 0
            // Four pixels (12 bytes: R0 G0 B0 R1 | G1 B1 R2 G2 | B2 R3 G3 B3) from three
            // little-endian words at a time.
            while x &+ 4 <= l.width {
                let w0 = src.loadUnaligned(fromByteOffset: x &* 3, as: UInt32.self)
                let w1 = src.loadUnaligned(fromByteOffset: x &* 3 &+ 4, as: UInt32.self)
                let w2 = src.loadUnaligned(fromByteOffset: x &* 3 &+ 8, as: UInt32.self)
                row[x] = w0 | 0xFF00_0000
                row[x &+ 1] = w0 &>> 24 | w1 &<< 8 | 0xFF00_0000
                row[x &+ 2] = w1 &>> 16 | w2 &<< 16 | 0xFF00_0000
                row[x &+ 3] = w2 &>> 8 | 0xFF00_0000
                x &+= 4
            }
            let bytes = src.assumingMemoryBound(to: UInt8.self)
            while x < l.width {
                let p = bytes + x &* 3
                row[x] = UInt32(p[0]) | UInt32(p[1]) &<< 8 | UInt32(p[2]) &<< 16 | 0xFF00_0000
                x &+= 1
            }
            row[l.width] = row[0]
        }
        finishLevel(0)
        rebuildMipmaps()
    }

    /// Recomputes levels 1… from level 0 with the 2×2 box filter (rounded, clamping at odd
    /// edges) and refreshes every level's padding. Allocation-free; O(texels of level 0 / 3).
    public func rebuildMipmaps() {
        for i in 1..<max(1, levels.count) {
            let s = levels[i - 1], d = levels[i]
            let src = texels + s.offset, dst = texels + d.offset
            for y in 0..<d.height {
                let r0 = src + (s.height == 1 ? 0 : 2 &* y) &* s.stride
                let r1 = src + (s.height == 1 ? 0 : 2 &* y &+ 1) &* s.stride
                let out = dst + y &* d.stride
                if s.width == 1 {
                    out[0] = Texture.average(r0[0], r0[0], r1[0], r1[0])
                } else {
                    for x in 0..<d.width {
                        let x0 = 2 &* x
                        out[x] = Texture.average(r0[x0], r0[x0 &+ 1], r1[x0], r1[x0 &+ 1])
                    }
                }
                out[d.width] = out[0]
            }
            finishLevel(i)
        }
    }

    /// Copies level `i`'s first row into its padding row (the padding column is written with each row).
    private func finishLevel(_ i: Int) {
        let l = levels[i]
        (texels + l.offset + l.height * l.stride).update(from: texels + l.offset, count: l.stride)
    }

    /// The rounded mean (sum + 2) / 4 of four packed RGBA texels, per channel: the channels are
    /// spread into 16-bit lanes of a 64-bit word (r, b | g, a) so one add sums all four.
    @inline(__always) static func average(_ a: UInt32, _ b: UInt32, _ c: UInt32, _ d: UInt32) -> UInt32 {
        @inline(__always) func spread(_ p: UInt32) -> UInt64 {
            UInt64(p & 0x00FF_00FF) | UInt64(p & 0xFF00_FF00) &<< 24
        }
        let s = (spread(a) &+ spread(b) &+ spread(c) &+ spread(d) &+ 0x0002_0002_0002_0002) &>> 2 & 0x00FF_00FF_00FF_00FF
        return UInt32(truncatingIfNeeded: s) | UInt32(truncatingIfNeeded: s &>> 24) & 0xFF00_FF00
    }
}
