// BlendTileState — one worker's 16×16-pixel tile while the blender works on it: set up from
// the background (or from the target, under a depth test) before the tile's splats, written
// out to the framebuffer after them. Shared by both blend kernels (8- and 16-lane), which
// differ only in how they walk a splat's rectangle.

/// Nine per-pixel Float arrays of 16 rows × 16 columns (row-major, one 64-byte line per row
/// and array): transmittance T, accumulated colour R G B, output depth D, the depth to test
/// against E (+inf without a depth test) and the colour behind the splats BR BG BB. The
/// origin is the tile's top-left pixel; pixels outside the image start with T = 0 (finished).
/// After them, one 16-bit mask per row of the pixels still live (T > 0), column c in bit c: the
/// 8-lane kernel walks only the rows of a splat's rectangle that still have one.
struct BlendTileState {
    /// Floats per array.
    static let pixels = 256
    /// Bytes per array (16 rows of 64 bytes).
    static let arrayBytes = pixels * 4
    /// Bytes of one worker's state (nine arrays and the live-column masks, one cache line).
    static let bytes = 9 * arrayBytes + 64

    let base: UnsafeMutableRawPointer
    /// The tile's top-left pixel (image coordinates).
    let x0, y0: Int
    /// Columns and rows of the tile inside the image (1…16).
    let wValid, hValid: Int

    var T: UnsafeMutableRawPointer { base }
    var R: UnsafeMutableRawPointer { base + Self.arrayBytes }
    var G: UnsafeMutableRawPointer { base + 2 * Self.arrayBytes }
    var B: UnsafeMutableRawPointer { base + 3 * Self.arrayBytes }
    var D: UnsafeMutableRawPointer { base + 4 * Self.arrayBytes }
    var E: UnsafeMutableRawPointer { base + 5 * Self.arrayBytes }
    var BR: UnsafeMutableRawPointer { base + 6 * Self.arrayBytes }
    var BG: UnsafeMutableRawPointer { base + 7 * Self.arrayBytes }
    var BB: UnsafeMutableRawPointer { base + 8 * Self.arrayBytes }
    /// Per row, the columns whose pixel is live (T > 0): bit c for column c.
    var liveColumns: UnsafeMutablePointer<UInt16> { (base + 9 * Self.arrayBytes).assumingMemoryBound(to: UInt16.self) }

    /// Sets up tile `t` (row-major tile index) in `base` (`bytes` long, 64-byte aligned):
    /// T = 1 inside the image, colour 0, D = E = +inf and the background behind — or, with
    /// `depthTest`, E and the colour behind read from the target.
    @inline(__always)
    init(tile t: Int, _ c: BlendContext, base: UnsafeMutableRawPointer, depthTest: Bool) {
        typealias V = SIMD8<Float>
        typealias I = SIMD8<Int32>
        self.base = base
        let tx = t % c.tilesX, ty = t / c.tilesX
        x0 = tx << SplatTunables.tileShift
        y0 = ty << SplatTunables.tileShift
        wValid = min(16, c.width - x0)
        hValid = min(16, c.height - y0)
        let T = self.T.assumingMemoryBound(to: V.self), R = self.R.assumingMemoryBound(to: V.self)
        let G = self.G.assumingMemoryBound(to: V.self), B = self.B.assumingMemoryBound(to: V.self)
        let D = self.D.assumingMemoryBound(to: V.self), E = self.E.assumingMemoryBound(to: V.self)
        let BR = self.BR.assumingMemoryBound(to: V.self), BG = self.BG.assumingMemoryBound(to: V.self)
        let BB = self.BB.assumingMemoryBound(to: V.self)
        let lane = I(0, 1, 2, 3, 4, 5, 6, 7), lane8 = lane &+ 8
        let inRow0 = lane .< I(repeating: Int32(wValid)), inRow1 = lane8 .< I(repeating: Int32(wValid))
        let bg = c.background
        let liveRow = UInt16(truncatingIfNeeded: (1 << wValid) &- 1)
        for row in 0..<16 { liveColumns[row] = row < hValid ? liveRow : 0 }
        for row in 0..<16 {
            let rowOK = SIMDMask<I.MaskStorage>(repeating: row < hValid)
            let i0 = row &* 2, i1 = i0 &+ 1
            T[i0] = V(repeating: 0).replacing(with: 1, where: inRow0 .& rowOK)
            T[i1] = V(repeating: 0).replacing(with: 1, where: inRow1 .& rowOK)
            R[i0] = .zero; G[i0] = .zero; B[i0] = .zero
            R[i1] = .zero; G[i1] = .zero; B[i1] = .zero
            if !depthTest {
                E[i0] = V(repeating: .infinity); E[i1] = E[i0]
                BR[i0] = V(repeating: bg.x); BG[i0] = V(repeating: bg.y); BB[i0] = V(repeating: bg.z)
                BR[i1] = BR[i0]; BG[i1] = BG[i0]; BB[i1] = BB[i0]
            } else {
                for h in 0..<2 {
                    let idx = i0 &+ h
                    for l in 0..<8 {
                        let x = x0 &+ h &* 8 &+ l, y = y0 &+ row
                        (E[idx][l], BR[idx][l], BG[idx][l], BB[idx][l]) =
                            x < c.width && row < hValid ? Self.backdrop(c, y &* c.width &+ x) : (.infinity, 0, 0, 0)
                    }
                }
            }
            D[i0] = E[i0]; D[i1] = E[i1]
        }
    }

    /// What a depth test reads of the target at pixel `p`: the depth to test against and the
    /// colour behind the splats (0…1 per channel). Both kernels' set-up.
    @inline(__always)
    static func backdrop(_ c: BlendContext, _ p: Int) -> (depth: Float, r: Float, g: Float, b: Float) {
        let rgba = c.color[p]
        return (c.depth[p], Float(rgba & 0xFF) / 255, Float(rgba >> 8 & 0xFF) / 255, Float(rgba >> 16 & 0xFF) / 255)
    }

    /// Pixels of the tile inside the image (each must finish before the tile can stop early).
    var livePixels: Int { wValid * hValid }

    /// Writes C + T·background (8-bit RGBA, alpha 255) and, with `writeDepth`, D to the target.
    @inline(__always)
    func finish(_ c: BlendContext, writeDepth: Bool) {
        typealias V = SIMD8<Float>
        let T = self.T.assumingMemoryBound(to: V.self), R = self.R.assumingMemoryBound(to: V.self)
        let G = self.G.assumingMemoryBound(to: V.self), B = self.B.assumingMemoryBound(to: V.self)
        let D = self.D.assumingMemoryBound(to: V.self), E = self.E.assumingMemoryBound(to: V.self)
        let BR = self.BR.assumingMemoryBound(to: V.self), BG = self.BG.assumingMemoryBound(to: V.self)
        let BB = self.BB.assumingMemoryBound(to: V.self)
        for row in 0..<hValid {
            for h in 0..<2 {
                let col = x0 &+ h &* 8
                guard col < c.width else { continue }
                let idx = row &* 2 &+ h
                let tv = T[idx]
                let packed = Self.toByte(R[idx].addingProduct(tv, BR[idx]))
                    | (Self.toByte(G[idx].addingProduct(tv, BG[idx])) &<< 8)
                    | (Self.toByte(B[idx].addingProduct(tv, BB[idx])) &<< 16)
                    | SIMD8<UInt32>(repeating: 0xFF00_0000)
                let p = (y0 &+ row) &* c.width &+ col
                let count = min(8, c.width &- col)
                // Where T never dropped below ½ no splat set the depth: the initial one (E).
                let depth = D[idx].replacing(with: E[idx], where: .!(tv .< SplatTunables.depthOpacity))
                if count == 8 {
                    UnsafeMutableRawPointer(c.color + p).storeBytes(of: packed, as: SIMD8<UInt32>.self)
                    if writeDepth { UnsafeMutableRawPointer(c.depth + p).storeBytes(of: depth, as: SIMD8<Float>.self) }
                } else {
                    for l in 0..<count {
                        c.color[p &+ l] = packed[l]
                        if writeDepth { c.depth[p &+ l] = depth[l] }
                    }
                }
            }
        }
    }

    /// round(clamp(v, 0, 1)·255) per lane, halves rounded up like `Float.rounded()` (the
    /// magic number alone would round them to even); NaN → 0. (Concrete lane types: the
    /// generic SIMD `replacing` compiles to a loop over lanes.)
    @inline(__always)
    static func toByte(_ v: SIMD8<Float>) -> SIMD8<UInt32> {
        var x = v.replacing(with: 0, where: .!(v .>= 0))
        x = x.replacing(with: 1, where: x .> 1)
        let y = (x * 255 + 0.5).rounded(.down) + 12_582_912
        return unsafeBitCast(y, to: SIMD8<UInt32>.self) & 0xFF
    }

    /// `toByte` on 16 lanes, the same operations (as two 8-lane halves it compiled to a call of
    /// ~40 instructions splitting vectors into 128-bit pieces, 48 per tile).
    @inline(__always)
    static func toByte(_ v: SIMD16<Float>) -> SIMD16<UInt32> {
        var x = v.replacing(with: 0, where: .!(v .>= 0))
        x = x.replacing(with: 1, where: x .> 1)
        let y = (x * 255 + 0.5).rounded(.down) + 12_582_912
        return unsafeBitCast(y, to: SIMD16<UInt32>.self) & 0xFF
    }
}
