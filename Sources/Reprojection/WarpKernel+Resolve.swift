// WarpKernel+Resolve — from "which source pixel won this target pixel" to its colour, sampled
// where the target pixel's centre falls in the source (sub-pixel, bilinear).
import CSIMD
import RenderCore

extension BandWork {
    /// How many source pixels ahead the resolve prefetches its source rows.
    static let resolvePrefetch = 64

    /// Replaces the source index the scatter left in each reached pixel of band `b` by a
    /// colour, and records which pixels were reached (`reached`). The winner's own position
    /// lands up to half a pixel from the target pixel's centre; the warp is locally a
    /// translation for small moves (its Jacobian is within a few per cent of the identity), so
    /// the centre is seen at the winner's position plus that offset in the source (the
    /// scatter's `offsets`), and the colour is read there bilinearly (8-bit weights, rounded).
    /// Nearest-pixel colours misplace every edge by up to half a pixel: thin lines and rings
    /// then cost ~2 dB at a 1 cm move. Texels across a depth discontinuity count as the
    /// winner's own colour, so that a silhouette's colours are not mixed into the background
    /// (the hole fill would spread the mixture across the disocclusion).
    func resolve(band b: Int) {
        let y0 = b &* bandRows, y1 = min(height, y0 &+ bandRows)
        let sw = sourceWidth, sh = sourceHeight
        let laneInts = SIMD8<Int32>(0, 1, 2, 3, 4, 5, 6, 7)
        let depthBits = UnsafeRawPointer(sourceDepth).assumingMemoryBound(to: UInt32.self)
        let colors = UnsafePointer(source)
        let nearestOnly = sw < 2 || sh < 2
        let stride = SIMD8<Int32>(repeating: Int32(truncatingIfNeeded: sw))
        for y in y0..<y1 {
            let row = y &* width, reachedBits = reached + y &* groupsPerRow
            var x = 0
            while x < width {
                let n = min(8, width &- x)
                var d = SIMD8<Float>(repeating: .nan), idx = SIMD8<Int32>(repeating: 0)
                if n == 8 {
                    d = UnsafeRawPointer(targetDepth + (row &+ x)).loadUnaligned(as: SIMD8<Float>.self)
                    idx = UnsafeRawPointer(target + (row &+ x)).loadUnaligned(as: SIMD8<Int32>.self)
                } else {
                    for k in 0..<n { d[k] = targetDepth[row &+ x &+ k]; idx[k] = Int32(bitPattern: target[row &+ x &+ k]) }
                }
                let reached = d .== d
                let bits = BandWork.laneBits(reached)
                reachedBits[x &>> 3] = UInt8(truncatingIfNeeded: bits)
                if bits == 0 { x &+= 8; continue }
                // Unreached lanes read a reached lane's texels (discarded), keeping the reads together.
                idx.replace(with: SIMD8(repeating: idx[bits.trailingZeroBitCount]), where: .!reached)
                var out: SIMD8<UInt32>
                if nearestOnly {
                    out = Self.gather(colors, idx)
                } else {
                    // Where the target pixel's centre falls in the source (the scatter's
                    // offsets from the winner, 1/256 pixel): the upper left of its bilinear quad.
                    let count = sw &* sh
                    var packed = SIMD8<Int32>(repeating: 0)
                    if n == 8 {
                        packed = UnsafeRawPointer(offsets + (row &+ x)).loadUnaligned(as: SIMD8<Int32>.self)
                    } else {
                        for k in 0..<n { packed[k] = Int32(bitPattern: offsets[row &+ x &+ k]) }
                    }
                    packed.replace(with: SIMD8(repeating: packed[bits.trailingZeroBitCount]), where: .!reached)   // as idx
                    let ox = (packed &<< 16) &>> 16, oy = packed &>> 16
                    let tx = unsafeBitCast(ox & 0xFF, to: SIMD8<UInt32>.self), tyw = unsafeBitCast(oy & 0xFF, to: SIMD8<UInt32>.self)
                    let topIndex = idx &+ (ox &>> 8) &+ (oy &>> 8) &* stride
                    if x & 15 == 0 {
                        // The source rows' lines some pixels ahead (four streams, colour and
                        // depth of two rows, besides the target's: more than the hardware
                        // prefetchers follow).
                        let ahead = Int(topIndex[0]) &+ Self.resolvePrefetch
                        csimd_prefetch(colors + ahead); csimd_prefetch(depthBits + ahead)
                        csimd_prefetch(colors + (ahead &+ sw)); csimd_prefetch(depthBits + (ahead &+ sw))
                    }
                    // Centres that all fall on source rows (a sideways move: vertical weights 0)
                    // need no lower taps: the vertical lerp with weight 0 gives the upper one.
                    // Likewise centres on source columns (an up or down move) need no right taps.
                    // Source reads are vector loads where the lanes' indices fall in one or two
                    // windows of 8 pixels (lanes 0… and …7: a slanted surface's winners switch
                    // source rows, a silhouette switches surfaces, a stretch repeats a pixel),
                    // shuffled into place and blended; else gathers (slow, on AMD too).
                    let zero = SIMD8<UInt32>(repeating: 0)
                    let level = BandWork.laneBits(tyw .== zero) == 0xFF, plumb = !level && BandWork.laneBits(tx .== zero) == 0xFF
                    let w = Self.windows(topIndex, laneInts, extent: sw &+ 9, count: count)
                    var d00 = SIMD8<UInt32>(repeating: 0)
                    if let w { d00 = Self.read(depthBits, 0, w) }
                    if let w, BandWork.laneBits(unsafeBitCast(d00, to: SIMD8<Int32>.self) .< SIMD8(repeating: 0)) == 0xFF {
                        // Every lane's quad is smooth (its sign bit, `RowDepthWork.markSmoothQuads`):
                        // no texel lies across a depth edge, so no depths are read.
                        let c00 = Self.read(colors, 0, w)
                        if level {
                            out = Self.lerp(c00, Self.read(colors, 1, w), tx)
                        } else if plumb {
                            out = Self.lerp(c00, Self.read(colors, sw, w), tyw)
                        } else {
                            let c10 = Self.read(colors, 1, w), c01 = Self.read(colors, sw, w), c11 = Self.read(colors, sw &+ 1, w)
                            out = Self.lerp(Self.lerp(c00, c10, tx), Self.lerp(c01, c11, tx), tyw)
                        }
                    } else {
                        out = resolveAcrossEdges(idx: idx, topIndex: topIndex, windows: w, d00: d00, tx: tx, tyw: tyw,
                                                 level: level, plumb: plumb)
                    }
                }
                if n == 8 {
                    // Unreached lanes too: the fill writes every unreached pixel and reads only
                    // reached ones, so what lands there is never seen.
                    UnsafeMutableRawPointer(target + (row &+ x)).storeBytes(of: out, as: SIMD8<UInt32>.self)
                } else {
                    for k in 0..<n where reached[k] { target[row &+ x &+ k] = out[k] }
                }
                x &+= 8
            }
        }
    }

    /// The resolve of 8 lanes where some quad is not marked smooth: the winner's depth and
    /// colour are read, and texels of another surface (depth more than 2 % off the winner's)
    /// count as the winner's own colour, so that a silhouette's colours are not mixed across
    /// it. Depths are read by magnitude (their sign marks smooth quads).
    @inline(__always)
    private func resolveAcrossEdges(idx: SIMD8<Int32>, topIndex: SIMD8<Int32>, windows tap: Windows?, d00 firstDepths: SIMD8<UInt32>,
                                    tx: SIMD8<UInt32>, tyw: SIMD8<UInt32>, level: Bool, plumb: Bool) -> SIMD8<UInt32> {
        let sw = sourceWidth, count = sourceWidth &* sourceHeight
        let laneInts = SIMD8<Int32>(0, 1, 2, 3, 4, 5, 6, 7), stride = SIMD8<Int32>(repeating: Int32(truncatingIfNeeded: sw))
        let depthBits = UnsafeRawPointer(sourceDepth).assumingMemoryBound(to: UInt32.self)
        let colors = UnsafePointer(source)
        let magnitude = SIMD8<UInt32>(repeating: 0x7FFF_FFFF)
        @inline(__always) func depths(_ v: SIMD8<UInt32>) -> SIMD8<Float> { unsafeBitCast(v & magnitude, to: SIMD8<Float>.self) }
        let sd: SIMD8<Float>, own: SIMD8<UInt32>
        if let w = Self.windows(idx, laneInts, extent: 8, count: count) {
            sd = depths(Self.read(depthBits, 0, w))
            own = Self.read(colors, 0, w)
        } else {
            sd = depths(Self.gather(depthBits, idx))
            own = Self.gather(colors, idx)
        }
        var c00, c10, c01, c11: SIMD8<UInt32>, d00, d10, d01, d11: SIMD8<Float>
        if let w = tap {
            c00 = Self.read(colors, 0, w)
            d00 = depths(firstDepths)
            if plumb {
                (c10, d10) = (c00, d00)
            } else {
                c10 = Self.read(colors, 1, w)
                d10 = depths(Self.read(depthBits, 1, w))
            }
            if level {
                (c01, c11, d01, d11) = (c00, c10, d00, d10)
            } else {
                c01 = Self.read(colors, sw, w)
                d01 = depths(Self.read(depthBits, sw, w))
                if plumb {
                    (c11, d11) = (c01, d01)
                } else {
                    c11 = Self.read(colors, sw &+ 1, w)
                    d11 = depths(Self.read(depthBits, sw &+ 1, w))
                }
            }
        } else {
            (c00, c10) = Self.gatherPairs(colors, topIndex)
            (c01, c11) = Self.gatherPairs(colors, topIndex &+ stride)
            let (a, b) = Self.gatherPairs(depthBits, topIndex)
            let (c, e) = Self.gatherPairs(depthBits, topIndex &+ stride)
            (d00, d10, d01, d11) = (depths(a), depths(b), depths(c), depths(e))
        }
        let lowest = sd * 0.98
        func other(_ d: SIMD8<Float>) -> SIMDMask<SIMD8<Int32>> { .!((d .>= lowest) .& (sd .>= d * 0.98)) }
        c00.replace(with: own, where: other(d00))
        if plumb {
            c01.replace(with: own, where: other(d01))
            return Self.lerp(c00, c01, tyw)
        } else if level {
            c10.replace(with: own, where: other(d10))
            return Self.lerp(c00, c10, tx)
        }
        c10.replace(with: own, where: other(d10))
        c01.replace(with: own, where: other(d01)); c11.replace(with: own, where: other(d11))
        return Self.lerp(Self.lerp(c00, c10, tx), Self.lerp(c01, c11, tx), tyw)
    }
}
