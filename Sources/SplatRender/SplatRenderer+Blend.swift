// SplatRenderer+Blend — stage 4: per-tile front-to-back blending (image contract step 7).
//
// A worker claims tiles from an atomic counter and keeps the tile's state in L1: per pixel
// transmittance T, accumulated colour, output depth, the depth to test against and the
// colour behind the splats, each as 16 rows × 16 floats. The tile's sorted (depth, slot)
// pairs are walked front to back, each record read from `projected` by slot (prefetched a
// few pairs ahead; with slots in spatial order a tile's records lie close together); each
// updates the pixels inside its rectangle, 8 lanes at a time: one unaligned window when the
// rectangle is ≤ 8 px wide, else the two aligned halves of the row. Masks are sign bits
// (LaneMask.swift). A pixel is finished by adding T·background and setting T = 0, so
// "finished" needs no extra mask; the tile stops when its count of live pixels reaches 0.
// Identical arithmetic per tile whichever worker runs it, so the bytes do not depend on the
// thread count.
//
// Cost notes (150k-splat room, 1280×720): ~6M window evaluations per frame, ~45
// instructions each; a data-dependent early-out after alpha mispredicts on ~¼ of windows
// and was removed (−13 % CPU).
import CSIMD
import RenderCore

/// Layout of a worker's tile state (in `SIMD8<Float>` units).
enum BlendTile {
    static let vectors = 32
    static let stateVectors = 9 * vectors
}

/// What the blender reads and writes, as raw pointers opened once per frame.
struct BlendContext {
    var records: UnsafeMutablePointer<ProjectedSplat>
    var pairs: UnsafeMutablePointer<TilePair>
    var start: UnsafeMutablePointer<Int32>
    var color: UnsafeMutablePointer<UInt32>
    var depth: UnsafeMutablePointer<Float>
    var width: Int, height: Int, tilesX: Int
    var background: Vec3
}

/// Stage 4's inputs; `run` blends tiles claimed from `nextTile` until none are left.
struct BlendWork {
    var tiles: Int
    var ctx: BlendContext
    var state: UnsafeMutablePointer<SIMD8<Float>>
    var depthTest, writeDepth: Bool

    func run(_ w: Int, _ r: SplatRenderer) {
        let st = state + w * BlendTile.stateVectors
        while true {
            let t = r.nextTile.wrappingAdd(1, ordering: .relaxed).oldValue
            if t >= tiles { break }
            // Four specialisations of the kernel (the flags are constants in each).
            switch (depthTest, writeDepth) {
            case (false, true): SplatRenderer.blendTile(t, ctx, st, depthTest: false, writeDepth: true)
            case (false, false): SplatRenderer.blendTile(t, ctx, st, depthTest: false, writeDepth: false)
            case (true, true): SplatRenderer.blendTile(t, ctx, st, depthTest: true, writeDepth: true)
            case (true, false): SplatRenderer.blendTile(t, ctx, st, depthTest: true, writeDepth: false)
            }
        }
    }
}

extension SplatRenderer {
    /// Blends every tile into `target` (colour and depth).
    func blend(tilesX: Int, tilesY: Int, setup: FrameSetup, background: Vec3, target: Framebuffer, depthTest: Bool,
               writeDepth: Bool) {
        let tiles = tilesX * tilesY
        let ctx = BlendContext(records: projected.base, pairs: pairsA.base, start: tileStart.base,
                               color: target.color, depth: target.depth,
                               width: setup.width, height: setup.height, tilesX: tilesX, background: background)
        let state = tileState.base
        nextTile.store(0, ordering: .relaxed)
        runParallel(.blend(BlendWork(tiles: tiles, ctx: ctx, state: state, depthTest: depthTest, writeDepth: writeDepth)))
    }

    /// Blends tile `t` (row-major tile index) with worker state `st`.
    @inline(__always)
    static func blendTile(_ t: Int, _ c: BlendContext, _ st: UnsafeMutablePointer<SIMD8<Float>>, depthTest: Bool,
                          writeDepth: Bool) {
        typealias V = SIMD8<Float>
        typealias I = SIMD8<Int32>
        let n = BlendTile.vectors
        let T = st, R = st + n, G = st + 2 * n, B = st + 3 * n, D = st + 4 * n, E = st + 5 * n
        let BR = st + 6 * n, BG = st + 7 * n, BB = st + 8 * n
        let tx = t % c.tilesX, ty = t / c.tilesX
        let x0 = tx << SplatTunables.tileShift, y0 = ty << SplatTunables.tileShift
        let wValid = min(16, c.width - x0), hValid = min(16, c.height - y0)
        let lane = I(0, 1, 2, 3, 4, 5, 6, 7), lane8 = lane &+ 8

        // Initial state: T = 1 inside the image (0 outside, so partial tiles can finish).
        let inRow0 = lane .< I(repeating: Int32(wValid)), inRow1 = lane8 .< I(repeating: Int32(wValid))
        let bg = c.background
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
                        if x < c.width && row < hValid {
                            let p = y &* c.width &+ x
                            E[idx][l] = c.depth[p]
                            let px = c.color[p]
                            BR[idx][l] = Float(px & 0xFF) / 255
                            BG[idx][l] = Float(px >> 8 & 0xFF) / 255
                            BB[idx][l] = Float(px >> 16 & 0xFF) / 255
                        } else {
                            E[idx][l] = .infinity; BR[idx][l] = 0; BG[idx][l] = 0; BB[idx][l] = 0
                        }
                    }
                }
            }
            D[i0] = E[i0]; D[i1] = E[i1]
        }

        // Front-to-back over the tile's list.
        let begin = Int(c.start[t]), end = Int(c.start[t &+ 1])
        let centre0 = V(0, 1, 2, 3, 4, 5, 6, 7) + (Float(x0) + 0.5)
        let centre1 = centre0 + 8
        var k = begin
        var livePixels = wValid * hValid
        let zero = V(repeating: 0), half = V(repeating: SplatTunables.depthOpacity)
        let alphaMax = V(repeating: SplatTunables.alphaMax), alphaMin = V(repeating: SplatTunables.alphaMin)
        let tMin = V(repeating: SplatTunables.transmittanceMin)
        let ahead = SplatTunables.blendPrefetchDistance
        for p in begin..<min(end, begin &+ ahead) { prefetch(c.records + Int(c.pairs[p] &>> 32)) }
        while k < end {
            if k &+ ahead < end { prefetch(c.records + Int(c.pairs[k &+ ahead] &>> 32)) }
            let s = c.records[Int(c.pairs[k] &>> 32)]
            k &+= 1
            let rx0 = max(Int(s.x0) &- x0, 0), rx1 = min(Int(s.x1) &- x0, 15)
            let ry0 = max(Int(s.y0) &- y0, 0), ry1 = min(Int(s.y1) &- y0, 15)
            // Lane windows: a rectangle at most 8 pixels wide is covered by one unaligned
            // 8-lane window starting at its first column (the tile's state rows are 16
            // contiguous floats); wider ones by the two aligned halves.
            let single = rx1 &- rx0 < 8
            let colA = single ? min(rx0, 8) : 0, colB = 8
            let lo = I(repeating: Int32(truncatingIfNeeded: rx0)), hi = I(repeating: Int32(truncatingIfNeeded: rx1))
            let laneA = lane &+ Int32(truncatingIfNeeded: colA)
            let mA = unsafeBitCast(laneBits((laneA .>= lo) .& (laneA .<= hi)), to: V.self)
            let mB = unsafeBitCast(laneBits((lane8 .>= lo) .& (lane8 .<= hi)), to: V.self)
            let dxA = (centre0 + Float(colA)) - s.mx, dxB = centre1 - s.mx
            let axA = dxA * s.ca, axB = dxB * s.ca
            let windows = single ? 1 : 2
            let op = V(repeating: s.opacity), depth = V(repeating: s.depth)
            let sr = V(repeating: s.r), sg = V(repeating: s.g), sb = V(repeating: s.b)
            for row in ry0...ry1 {
                let dy = Float(y0 &+ row) + 0.5 - s.my
                let k1 = V(repeating: s.cb * dy), k0 = V(repeating: s.cc * dy * dy)
                var win = 0
                while win < windows {
                    let first = win == 0
                    win &+= 1
                    let dx = first ? dxA : dxB, ax = first ? axA : axB
                    // Byte offset of the window in every state array.
                    let o = ((row &<< 4) &+ (first ? colA : colB)) &<< 2
                    let tOld = load(T, o)
                    // Masks are sign bits (see LaneMask): live = in rectangle & T > 0 [& d < depth].
                    var live = both(first ? mA : mB, less(zero, tOld))
                    if depthTest { live = both(live, less(depth, load(E, o))) }
                    guard anySign(live) else { continue }
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
                    var r = load(R, o).addingProduct(w, sr), g = load(G, o).addingProduct(w, sg)
                    var b = load(B, o).addingProduct(w, sb)
                    var tNew = selectSign(add, testT, else: tOld)
                    let finished = both(ok, finishing)
                    let finishedBits = signBits(finished)
                    if finishedBits != 0 {
                        livePixels &-= finishedBits.nonzeroBitCount
                        // The pixel is done: add what shows through, then mark it with T = 0.
                        let wf = selectSign(finished, tOld, else: zero)
                        r = r.addingProduct(wf, load(BR, o)); g = g.addingProduct(wf, load(BG, o))
                        b = b.addingProduct(wf, load(BB, o))
                        tNew = selectSign(finished, zero, else: tNew)
                    }
                    store(r, R, o); store(g, G, o); store(b, B, o)
                    // Depth where accumulated opacity first exceeds ½: T drops below ½ here.
                    if writeDepth {
                        let crossed = butNot(both(add, less(testT, half)), less(tOld, half))
                        store(selectSign(crossed, depth, else: load(D, o)), D, o)
                    }
                    store(tNew, T, o)
                }
            }
            if livePixels == 0 { break }  // every pixel of the tile is finished
        }

        // Write out C + T·background and depth.
        for row in 0..<hValid {
            for h in 0..<2 {
                let col = x0 &+ h &* 8
                guard col < c.width else { continue }
                let idx = row &* 2 &+ h
                let tv = T[idx]
                let packed = toByte(R[idx].addingProduct(tv, BR[idx]))
                    | (toByte(G[idx].addingProduct(tv, BG[idx])) &<< 8)
                    | (toByte(B[idx].addingProduct(tv, BB[idx])) &<< 16)
                    | SIMD8<UInt32>(repeating: 0xFF00_0000)
                let p = (y0 &+ row) &* c.width &+ col
                let count = min(8, c.width &- col)
                if count == 8 {
                    UnsafeMutableRawPointer(c.color + p).storeBytes(of: packed, as: SIMD8<UInt32>.self)
                    if writeDepth { UnsafeMutableRawPointer(c.depth + p).storeBytes(of: D[idx], as: SIMD8<Float>.self) }
                } else {
                    for l in 0..<count {
                        c.color[p &+ l] = packed[l]
                        if writeDepth { c.depth[p &+ l] = D[idx][l] }
                    }
                }
            }
        }
    }

    /// Prefetches both cache lines a 48-byte record may span.
    @inline(__always)
    static func prefetch(_ r: UnsafeMutablePointer<ProjectedSplat>) {
        csimd_prefetch(r)
        csimd_prefetch(UnsafeRawPointer(r) + (MemoryLayout<ProjectedSplat>.stride - 1))
    }

    /// 8 lanes at a byte offset (any alignment) of a state array.
    @inline(__always)
    static func load(_ p: UnsafeMutablePointer<SIMD8<Float>>, _ byteOffset: Int) -> SIMD8<Float> {
        UnsafeRawPointer(p).loadUnaligned(fromByteOffset: byteOffset, as: SIMD8<Float>.self)
    }

    /// Stores 8 lanes at a byte offset (any alignment) of a state array.
    @inline(__always)
    static func store(_ v: SIMD8<Float>, _ p: UnsafeMutablePointer<SIMD8<Float>>, _ byteOffset: Int) {
        UnsafeMutableRawPointer(p).storeBytes(of: v, toByteOffset: byteOffset, as: SIMD8<Float>.self)
    }

    /// round(clamp(v, 0, 1)·255) per lane, halves rounded up like `Float.rounded()` (the
    /// magic number alone would round them to even); NaN → 0.
    @inline(__always)
    static func toByte(_ v: SIMD8<Float>) -> SIMD8<UInt32> {
        var x = v.replacing(with: 0, where: .!(v .>= 0))
        x = x.replacing(with: 1, where: x .> 1)
        let y = (x * 255 + 0.5).rounded(.down) + 12_582_912
        return unsafeBitCast(y, to: SIMD8<UInt32>.self) & 0xFF
    }
}
