// SplatRenderer+Blend — stage 4: per-tile front-to-back blending (image contract step 7),
// and the 8-lane kernel.
//
// A worker claims tiles from an atomic counter and keeps the tile's state in L1
// (`BlendTileState`: per pixel transmittance T, accumulated colour, output depth, the depth to
// test against and the colour behind the splats, each 16 rows × 16 floats). The tile's sorted
// (depth, slot) pairs are walked front to back, each record read from `projected` by slot
// (prefetched a few pairs ahead; with slots in spatial order a tile's records lie close
// together); each updates the pixels inside its rectangle a SIMD window at a time. Two kernels
// walk the rectangle: this file's, 8 lanes (4 columns × 2 rows when the rectangle is ≤ 4 px
// wide, one unaligned window of a row when ≤ 8 px, else the row's two aligned halves; masks
// are sign bits, LaneMask.swift), and for AVX-512 machines the block kernel, which keeps
// 4×4-pixel blocks in registers instead (BlockBlendKernel.swift). A pixel is finished
// by adding T·background and setting T = 0, so "finished" needs no extra mask; the tile stops
// when its count of live pixels reaches 0. Identical arithmetic per pixel whichever kernel, window or worker covers it, so
// the bytes depend neither on the kernel nor on the thread count.
//
// Cost notes (150k-splat room, 1280×720): ~6M window evaluations per frame, ~45
// instructions each; a data-dependent early-out after alpha mispredicts on ~¼ of windows
// and was removed (−13 % CPU).
import CSIMD
import RenderCore
internal import SplatRenderAVX512

/// Which blend kernel walks a splat's rectangle (the image is the same byte for byte).
public enum BlendKernel: String, Sendable, CaseIterable {
    /// 8-lane windows over the tile's state in L1 (4×2, 8×1, two 8×1 per row): for AVX2.
    case lanes8
    /// 4×4-pixel blocks of 16 lanes whose state stays in registers while each walks its own
    /// list of the tile's splats, two blocks at a time (BlockBlendKernel.swift): for
    /// AVX-512 (32 vector registers, mask registers), where it runs its AVX-512 compile.
    /// Correct everywhere; slower without AVX-512.
    case blocks

    /// The kernel for the CPU this runs on, chosen at start-up (`CPUDispatch`): blocks where
    /// the AVX-512 kernels may run, else 8-lane windows.
    public static let native: BlendKernel = CPUDispatch.avx512Available ? .blocks : .lanes8
}

/// Stage 4's inputs; `run` blends tiles claimed from `nextTile` until none are left.
struct BlendWork {
    var tiles: Int
    var ctx: BlendContext
    /// Every worker's `SplatRenderer.blendScratchBytes` of scratch, one after another.
    var state: UnsafeMutableRawPointer
    var depthTest, writeDepth: Bool
    var kernel: BlendKernel
    /// Whether `.blocks` runs its AVX-512 compile (only where `CPUDispatch` allows it).
    var avx512: Bool

    func run(_ w: Int, _ r: SplatRenderer) {
        let st = state + w * SplatRenderer.blendScratchBytes
        while true {
            // A few tiles at a time, so that the next tiles' first pairs and records (long out
            // of cache) are asked for while this one blends: pairs two tiles ahead, then the
            // records they name one tile ahead.
            if r.shouldAbandon() { break }
            let first = r.nextTile.wrappingAdd(Self.tilesPerClaim, ordering: .relaxed).oldValue
            if first >= tiles { break }
            let last = min(tiles, first &+ Self.tilesPerClaim)
            if first &+ 1 < last { ctx.prefetchPairs(first &+ 1) }
            for t in first..<last {
                if t &+ 2 < last { ctx.prefetchPairs(t &+ 2) }
                if t &+ 1 < last { ctx.prefetchRecords(t &+ 1) }
                blend(t, st)
            }
        }
    }

    /// Tiles a worker claims at once.
    static let tilesPerClaim = 8

    /// Blends tile `t` with worker scratch `st`.
    @inline(__always)
    func blend(_ t: Int, _ st: UnsafeMutableRawPointer) {
        // Eight specialisations (the flags are constants in each).
        switch (kernel, depthTest, writeDepth) {
        case (.lanes8, false, true): SplatRenderer.blendTile(t, ctx, st, depthTest: false, writeDepth: true)
        case (.lanes8, false, false): SplatRenderer.blendTile(t, ctx, st, depthTest: false, writeDepth: false)
        case (.lanes8, true, true): SplatRenderer.blendTile(t, ctx, st, depthTest: true, writeDepth: true)
        case (.lanes8, true, false): SplatRenderer.blendTile(t, ctx, st, depthTest: true, writeDepth: false)
        case (.blocks, _, _) where avx512:
            AVX512BlockKernel.blendTile(t, UnsafeRawPointer(ctx.records), ctx.pairs, ctx.start, ctx.color, ctx.depth,
                                        width: ctx.width, height: ctx.height, tilesX: ctx.tilesX,
                                        background: ctx.background, scratch: st, depthTest: depthTest, writeDepth: writeDepth)
        case (.blocks, false, true): BlockBlendKernel.blendTile(t, ctx, st, depthTest: false, writeDepth: true)
        case (.blocks, false, false): BlockBlendKernel.blendTile(t, ctx, st, depthTest: false, writeDepth: false)
        case (.blocks, true, true): BlockBlendKernel.blendTile(t, ctx, st, depthTest: true, writeDepth: true)
        case (.blocks, true, false): BlockBlendKernel.blendTile(t, ctx, st, depthTest: true, writeDepth: false)
        }
    }
}

extension SplatRenderer {
    /// Bytes of blend scratch per worker (the larger of the kernels' needs, whole cache lines).
    static let blendScratchBytes = (max(BlendTileState.bytes, BlockBlendScratch.bytes) + 63) / 64 * 64

    /// Blends every tile into `target` (colour and depth).
    func blend(tilesX: Int, tilesY: Int, setup: FrameSetup, background: Vec3, target: Framebuffer, depthTest: Bool,
               writeDepth: Bool) {
        let tiles = tilesX * tilesY
        let ctx = BlendContext(records: projected.base, pairs: pairsA.base, start: tileStart.base,
                               color: target.color, depth: target.depth,
                               width: setup.width, height: setup.height, tilesX: tilesX, background: background)
        nextTile.store(0, ordering: .relaxed)
        runParallel(.blend(BlendWork(tiles: tiles, ctx: ctx, state: UnsafeMutableRawPointer(blendScratch.base),
                                     depthTest: depthTest, writeDepth: writeDepth, kernel: blendKernel,
                                     avx512: blendInstructionSet == .avx512)))
    }

    /// Blends tile `t` (row-major tile index) with worker state `st`.
    @inline(__always)
    static func blendTile(_ t: Int, _ c: BlendContext, _ st: UnsafeMutableRawPointer, depthTest: Bool,
                          writeDepth: Bool) {
        typealias V = SIMD8<Float>
        typealias I = SIMD8<Int32>
        let tile = BlendTileState(tile: t, c, base: st, depthTest: depthTest)
        func array(_ p: UnsafeMutableRawPointer) -> UnsafeMutablePointer<V> { p.assumingMemoryBound(to: V.self) }
        let T = array(tile.T), R = array(tile.R), G = array(tile.G), B = array(tile.B), D = array(tile.D)
        let E = array(tile.E), BR = array(tile.BR), BG = array(tile.BG), BB = array(tile.BB)
        let x0 = tile.x0, y0 = tile.y0
        let lane = I(0, 1, 2, 3, 4, 5, 6, 7), lane8 = lane &+ 8

        // Front-to-back over the tile's list.
        let begin = Int(c.start[t]), end = Int(c.start[t &+ 1])
        let centre0 = V(0, 1, 2, 3, 4, 5, 6, 7) + (Float(x0) + 0.5)
        let centre1 = centre0 + 8
        // The 4×2 window: lanes 0–3 are columns 0–3 of one row, lanes 4–7 the same of the next.
        let quad = I(0, 1, 2, 3, 0, 1, 2, 3), pairRow = I(0, 0, 0, 0, 1, 1, 1, 1)
        let centreQuad = V(0, 1, 2, 3, 0, 1, 2, 3) + (Float(x0) + 0.5), pairDy = V(0, 0, 0, 0, 1, 1, 1, 1)
        var k = begin
        var livePixels = tile.livePixels
        let liveColumns = tile.liveColumns
        let zero = V(repeating: 0), half = V(repeating: SplatTunables.depthOpacity)
        let alphaMax = V(repeating: SplatTunables.alphaMax), alphaMin = V(repeating: SplatTunables.alphaMin)
        let tMin = V(repeating: SplatTunables.transmittanceMin)
        let ahead = SplatTunables.blendPrefetchDistance
        for p in begin..<min(end, begin &+ ahead) { prefetchRecord(c.records + Int(c.pairs[p] &>> 32)) }
        // One window: 8 lanes whose four-lane halves sit at byte offsets `oLo`, `oHi` of every
        // state array (`oHi = oLo + 16` for 8 pixels of one row; a row apart for 4×2).
        @inline(__always)
        func window(_ s: ProjectedSplat, _ oLo: Int, _ oHi: Int, paired: Bool, _ inRect: V, _ dx: V, _ ax: V,
                    _ k0: V, _ k1: V) {
            let op = V(repeating: s.opacity), depth = V(repeating: s.depth)
            let tOld = load(T, oLo, oHi, paired: paired)
            // Masks are sign bits (see LaneMask): live = in rectangle & T > 0 [& d < depth].
            var live = both(inRect, less(zero, tOld))
            if depthTest { live = both(live, less(depth, load(E, oLo, oHi, paired: paired))) }
            guard anySign(live) else { return }
            // power = ca·dx² + cb·dx·dy + cc·dy² = dx·(ca·dx + cb·dy) + cc·dy².
            let power = k0.addingProduct(dx, ax + k1)
            let alpha = minLanes(fastExp2(power) * op, alphaMax)  // power is in log2 units
            // ok = live & !(power > 0) & !(alpha < 1/255)
            let ok = butNot(butNot(live, less(zero, power)), less(alpha, alphaMin))
            // No early-out on `ok`: it fails for ~¼ of vectors in no pattern (mispredicts).
            let aT = alpha * tOld
            let testT = tOld - aT  // T·(1 − α), reusing α·T
            let finishing = less(testT, tMin)
            let add = butNot(ok, finishing)
            let w = selectSign(add, aT, else: zero)
            var r = load(R, oLo, oHi, paired: paired).addingProduct(w, V(repeating: s.r))
            var g = load(G, oLo, oHi, paired: paired).addingProduct(w, V(repeating: s.g))
            var b = load(B, oLo, oHi, paired: paired).addingProduct(w, V(repeating: s.b))
            var tNew = selectSign(add, testT, else: tOld)
            let finished = both(ok, finishing)
            let finishedBits = signBits(finished)
            if finishedBits != 0 {
                livePixels &-= finishedBits.nonzeroBitCount
                // Those pixels are no longer live (lane l is column col + l, lanes 4–7 of a 4×2
                // window the next row's).
                let row = oLo &>> 6, col = (oLo &>> 2) & 15
                if paired {
                    liveColumns[row] &= ~UInt16(truncatingIfNeeded: (finishedBits & 0xF) &<< col)
                    liveColumns[row &+ 1] &= ~UInt16(truncatingIfNeeded: (finishedBits &>> 4) &<< col)
                } else {
                    liveColumns[row] &= ~UInt16(truncatingIfNeeded: finishedBits &<< col)
                }
                // The pixel is done: add what shows through, then mark it with T = 0.
                let wf = selectSign(finished, tOld, else: zero)
                r = r.addingProduct(wf, load(BR, oLo, oHi, paired: paired))
                g = g.addingProduct(wf, load(BG, oLo, oHi, paired: paired))
                b = b.addingProduct(wf, load(BB, oLo, oHi, paired: paired))
                tNew = selectSign(finished, zero, else: tNew)
            }
            store(r, R, oLo, oHi, paired: paired); store(g, G, oLo, oHi, paired: paired)
            store(b, B, oLo, oHi, paired: paired)
            // Depth where accumulated opacity first exceeds ½: of the splat that takes T below
            // ½, the last one added while T ≥ ½ (T only falls; `finish` keeps the initial depth
            // where T never drops below ½) — the block kernel's rule, one comparison.
            if writeDepth {
                let aboveHalf = butNot(add, less(tOld, half))
                store(selectSign(aboveHalf, depth, else: load(D, oLo, oHi, paired: paired)), D, oLo, oHi, paired: paired)
            }
            store(tNew, T, oLo, oHi, paired: paired)
        }

        while k < end {
            if k &+ ahead < end { prefetchRecord(c.records + Int(c.pairs[k &+ ahead] &>> 32)) }
            let s = c.records[Int(c.pairs[k] &>> 32)]
            k &+= 1
            let rx0 = max(Int(s.x0) &- x0, 0), rx1 = min(Int(s.x1) &- x0, 15)
            let ry0 = max(Int(s.y0) &- y0, 0), ry1 = min(Int(s.y1) &- y0, 15)
            let lo = I(repeating: Int32(truncatingIfNeeded: rx0)), hi = I(repeating: Int32(truncatingIfNeeded: rx1))
            // Only the rectangle's rows that still have a live pixel in its columns are walked
            // (two bits per row); the others would change nothing. A window's pixels differ from
            // every other window's of the splat, so the order they come in is free.
            let rectCols = UInt32(truncatingIfNeeded: ((1 &<< (rx1 &- rx0 &+ 1)) &- 1) &<< rx0)
            let rectRows = UInt32(truncatingIfNeeded: ((1 &<< ((ry1 &- ry0 &+ 1) &<< 1)) &- 1) &<< (ry0 &<< 1))
            if rx1 &- rx0 < 4 {
                // At most 4 pixels wide: 4 columns × 2 rows per window (the next row too), the
                // rows' halves loaded separately. A pair that would pass row 15 starts a row
                // early, its first row masked off (already walked).
                let col = min(rx0, 12)
                let cols = quad &+ Int32(truncatingIfNeeded: col)
                let mCol = laneBits((cols .>= lo) .& (cols .<= hi))
                let dx = (centreQuad + Float(col)) - s.mx, ax = dx * s.ca
                var rows = csimd_rows_with_live16(liveColumns, rectCols) & rectRows
                while rows != 0 {
                    let row = rows.trailingZeroBitCount &>> 1
                    rows &= ~(UInt32(0xF) &<< (row &<< 1))
                    let r0 = min(row, 14)
                    let pairRows = pairRow &+ Int32(truncatingIfNeeded: r0)
                    let mRow = laneBits((pairRows .>= I(repeating: Int32(truncatingIfNeeded: row)))
                                        .& (pairRows .<= I(repeating: Int32(truncatingIfNeeded: ry1))))
                    let dy = (pairDy + (Float(y0 &+ r0) + 0.5)) - s.my
                    let k1 = s.cb * dy, k0 = s.cc * dy * dy
                    let o = ((r0 &<< 4) &+ col) &<< 2
                    window(s, o, o &+ 64, paired: true, unsafeBitCast(mCol & mRow, to: V.self), dx, ax, k0, k1)
                }
            } else {
                // Lane windows: a rectangle at most 8 pixels wide is covered by one unaligned
                // 8-lane window starting at its first column (the tile's state rows are 16
                // contiguous floats); wider ones by the two aligned halves, each walked on its own.
                let single = rx1 &- rx0 < 8
                let colA = single ? min(rx0, 8) : 0, colB = 8
                let laneA = lane &+ Int32(truncatingIfNeeded: colA)
                let mA = unsafeBitCast(laneBits((laneA .>= lo) .& (laneA .<= hi)), to: V.self)
                // One 8-lane window per row of `rows` (two bits per row), starting at column `col`.
                @inline(__always)
                func walk(_ rows: UInt32, col: Int, _ inRect: V, _ dx: V) {
                    let ax = dx * s.ca
                    var rows = rows
                    while rows != 0 {
                        let row = rows.trailingZeroBitCount &>> 1
                        rows &= ~(UInt32(3) &<< (row &<< 1))
                        let dy = Float(y0 &+ row) + 0.5 - s.my
                        let k1 = V(repeating: s.cb * dy), k0 = V(repeating: s.cc * dy * dy)
                        let o = ((row &<< 4) &+ col) &<< 2
                        window(s, o, o &+ 16, paired: false, inRect, dx, ax, k0, k1)
                    }
                }
                walk(csimd_rows_with_live16(liveColumns, single ? rectCols : rectCols & 0xFF) & rectRows, col: colA, mA,
                     (centre0 + Float(colA)) - s.mx)
                if !single {
                    let mB = unsafeBitCast(laneBits((lane8 .>= lo) .& (lane8 .<= hi)), to: V.self)
                    walk(csimd_rows_with_live16(liveColumns, rectCols & 0xFF00) & rectRows, col: colB, mB, centre1 - s.mx)
                }
            }
            if livePixels == 0 { break }  // every pixel of the tile is finished
        }

        tile.finish(c, writeDepth: writeDepth)
    }

    /// 8 lanes of a state array: contiguous at byte offset `lo` (any alignment), or when
    /// `paired` lanes 0–3 at `lo` and 4–7 at `hi`.
    @inline(__always)
    static func load(_ p: UnsafeMutablePointer<SIMD8<Float>>, _ lo: Int, _ hi: Int, paired: Bool) -> SIMD8<Float> {
        let raw = UnsafeRawPointer(p)
        guard paired else { return raw.loadUnaligned(fromByteOffset: lo, as: SIMD8<Float>.self) }
        return SIMD8(lowHalf: raw.loadUnaligned(fromByteOffset: lo, as: SIMD4<Float>.self),
                     highHalf: raw.loadUnaligned(fromByteOffset: hi, as: SIMD4<Float>.self))
    }

    /// Stores 8 lanes where `load` with the same offsets reads them.
    @inline(__always)
    static func store(_ v: SIMD8<Float>, _ p: UnsafeMutablePointer<SIMD8<Float>>, _ lo: Int, _ hi: Int,
                      paired: Bool) {
        let raw = UnsafeMutableRawPointer(p)
        guard paired else { return raw.storeBytes(of: v, toByteOffset: lo, as: SIMD8<Float>.self) }
        raw.storeBytes(of: v.lowHalf, toByteOffset: lo, as: SIMD4<Float>.self)
        raw.storeBytes(of: v.highHalf, toByteOffset: hi, as: SIMD4<Float>.self)
    }
}
