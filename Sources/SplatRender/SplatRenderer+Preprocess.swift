// SplatRenderer+Preprocess — stage 1: project every splat (image contract steps 1–6),
// 8 splats per SIMD vector over the structure-of-arrays `PreparedSplats`. Visible splats are
// written compacted within fixed chunks of slots (chunk c starts at slot c·chunk size), so
// slot order is the prepared order (see `PreparedSplats`) whatever the thread count.
import CSIMD
import Foundation
import RenderCore

/// Raw pointers into a `PreparedSplats`, opened once per frame.
struct PreparedView {
    var fields: UnsafeMutablePointer<Float>
    var stride: Int
    var rest: UnsafeMutablePointer<Float16>
    var sourceIndex: UnsafeMutablePointer<UInt32>
    /// Rest coefficients per splat over all channels (restCount · 3).
    var k3: Int
    var degree: Int

    /// Asks for group `g`'s cache lines of every field, its source indices and its SH
    /// coefficients.
    @inline(__always) func prefetch(_ g: Int) {
        for f in 0..<PreparedSplats.fieldCount { csimd_prefetch(fields + (f &* stride &+ g)) }
        csimd_prefetch(sourceIndex + g)
        if k3 > 0 {
            let h = UnsafeRawPointer(rest + g &* k3)
            var o = 0
            while o < k3 &* 16 { csimd_prefetch(h + o); o &+= 64 }  // 8 splats × k3 halves × 2 bytes
        }
    }

    @inline(__always) func load(_ f: PreparedSplats.Field, _ g: Int) -> SIMD8<Float> {
        UnsafeRawPointer(fields + (f.rawValue &* stride &+ g)).loadUnaligned(as: SIMD8<Float>.self)
    }
}

/// Stage 1's inputs; `run` is one worker's share (chunks claimed from `nextChunk`).
struct PreprocessWork {
    var n, chunks, size: Int
    var view: PreparedView
    var setup: FrameSetup
    var scratch: UnsafeMutablePointer<SIMD8<Float>>
    var proj: UnsafeMutablePointer<ProjectedSplat>
    var keys: UnsafeMutablePointer<UInt32>
    var rects: UnsafeMutablePointer<TileRect>
    var sources: UnsafeMutablePointer<UInt32>
    /// When binning will walk a kept depth order (`PresortedBinWork`): per prepared slot, the
    /// splat's depth key, tile rectangle and output slot (key 0: culled), so that binning reads
    /// one 16-byte entry per splat in depth order. Nil otherwise.
    var entries: UnsafeMutablePointer<BinEntry>?
    var visibleCounts: UnsafeMutablePointer<Int>
    /// Tile counts, `tiles` per worker (binning's input), and which worker took each chunk.
    var tileCounts: UnsafeMutablePointer<Int32>
    /// `BinWork.countTiles`' span counters, per worker.
    var tileSpans: UnsafeMutablePointer<Int32>
    var owners: UnsafeMutablePointer<Int32>
    var tiles, tilesX: Int
    /// Records go out with non-temporal stores (see `SplatTunables.streamRecordsAbove`).
    var streamRecords: Bool

    /// Splats ahead whose fields are prefetched: a group reads 15 streams (14 field arrays and
    /// the SH coefficients), more than the hardware prefetchers follow on their own.
    static let prefetchSplats = 64

    func run(_ w: Int, _ r: SplatRenderer) {
        let tmp = scratch + w * SplatRenderer.preprocessScratchVectors
        let counts = tileCounts + w &* tiles, spanCount = BinWork.spanCounters(tiles: tiles)
        let spans = tileSpans + w &* spanCount
        counts.update(repeating: 0, count: tiles)
        spans.update(repeating: 0, count: spanCount)
        while true {
            if r.shouldAbandon() { break }
            let c = r.nextChunk.wrappingAdd(1, ordering: .relaxed).oldValue
            if c >= chunks { break }
            owners[c] = Int32(truncatingIfNeeded: w)
            let start = c * size, end = min(n, start + size)
            var out = start, g = start
            while g < end {
                if g &+ Self.prefetchSplats < n { view.prefetch(g &+ Self.prefetchSplats) }
                var lanes: UInt8 = 0
                let next = SplatRenderer.projectGroup(g, view, setup, tmp, proj, keys, rects, sources, out,
                                                      &lanes, streamRecords: streamRecords)
                if let entries { BinEntry.write(entries + g, lanes: lanes, first: out, keys: keys, rects: rects) }
                out = next
                g &+= 8
            }
            visibleCounts[c] = out - start
            // The chunk's tiles, counted while its keys and rectangles are in cache.
            BinWork.countTiles(start..<out, keys: keys, rects: rects, keyLimit: .max, tiles: tiles, tilesX: tilesX,
                               into: counts, spans: spans)
        }
        BinWork.addSpans(counts, spans: spans, tiles: tiles, tilesX: tilesX)
        if streamRecords { csimd_store_fence() }  // streamed records, before the stage ends
    }
}

extension SplatRenderer {
    /// Projects all splats in parallel. Workers claim fixed chunks of
    /// `SplatTunables.preprocessChunk` splats (a multiple of 8) from an atomic counter, so a
    /// descheduled thread does not hold the others up; chunk c's visible splats are written
    /// compacted from slot c·chunk size on: the record to `projected`, the depth bits to
    /// `keysA`, the tile rectangle to `tileRects`, the source index (depth tie-breaker) to
    /// `slotSource`, and their number to `chunkVisible[c]` (with `presorted`, also every prepared
    /// slot's `BinEntry` to `binEntries`); each worker counts the tiles of its
    /// chunks into its `tilesX × tilesY` counters of `tileCounts` and marks them in `chunkOwner`.
    /// Returns the number of chunks and of visible splats.
    func preprocess(_ splats: PreparedSplats, setup: FrameSetup, tilesX: Int, tilesY: Int,
                    presorted: Bool = false) -> (chunks: Int, visible: Int) {
        let n = splats.count
        let proj = projected.reserve(max(1, n))
        let keys = keysA.reserve(max(1, n)), rects = tileRects.reserve(max(1, n))
        let sources = slotSource.reserve(max(1, n))
        let entries = presorted ? binEntries.reserve(max(8, (n + 7) / 8 * 8)) : nil
        let size = SplatTunables.preprocessChunk
        let chunks = (n + size - 1) / size
        let visibleCounts = chunkVisible.reserve(max(1, chunks))
        let owners = chunkOwner.reserve(max(1, chunks))
        let tiles = tilesX * tilesY
        let counts = tileCounts.reserve(pool.count * tiles)
        let spans = tileSpanCounts.reserve(pool.count * BinWork.spanCounters(tiles: tiles))
        let view = PreparedView(fields: splats.fields, stride: splats.fieldStride, rest: splats.rest,
                                sourceIndex: splats.sourceIndex,
                                k3: splats.restCount * 3, degree: splats.shDegree)
        nextChunk.store(0, ordering: .relaxed)
        runParallel(.preprocess(PreprocessWork(
            n: n, chunks: chunks, size: size, view: view, setup: setup, scratch: preprocessScratch.base,
            proj: proj, keys: keys, rects: rects, sources: sources, entries: entries,
            visibleCounts: visibleCounts,
            tileCounts: counts, tileSpans: spans, owners: owners, tiles: tiles, tilesX: tilesX,
            streamRecords: n * MemoryLayout<ProjectedSplat>.stride > SplatTunables.streamRecordsAbove)))
        var visible = 0
        if abandoned.load(ordering: .relaxed) { return (chunks, 0) }   // unclaimed chunks hold nothing
        for c in 0..<chunks { visible += visibleCounts[c] }
        return (chunks, visible)
    }

    /// Projects splats g…g+7 (padding lanes have opacity 0) and appends the visible ones at
    /// `out`; returns the new end. Culled: behind the near plane, degenerate, transparent or
    /// off-image. The stored rectangle is the contract's square ∩ the alpha ≥ 1/255 box.
    @inline(__always)
    static func projectGroup(_ g: Int, _ sp: PreparedView, _ s: FrameSetup, _ tmp: UnsafeMutablePointer<SIMD8<Float>>,
                             _ proj: UnsafeMutablePointer<ProjectedSplat>, _ keys: UnsafeMutablePointer<UInt32>,
                             _ rects: UnsafeMutablePointer<TileRect>, _ sources: UnsafeMutablePointer<UInt32>,
                             _ outStart: Int, _ laneMask: inout UInt8, streamRecords: Bool) -> Int {
        typealias V = SIMD8<Float>
        let zero = V(repeating: 0)
        let px = sp.load(.x, g), py = sp.load(.y, g), pz = sp.load(.z, g)
        var opacity = sp.load(.opacity, g)
        var keep = opacity .>= SplatTunables.alphaMin
        defer { laneMask = UInt8(truncatingIfNeeded: maskBits(keep)) }  // the lanes written
        // 1. Camera space: u = t.x, v = −t.y, d = −t.z.
        let tx = px * s.v00 + py * s.v01 + pz * s.v02 + s.v03
        let ty = px * s.v10 + py * s.v11 + pz * s.v12 + s.v13
        let tz = px * s.v20 + py * s.v21 + pz * s.v22 + s.v23
        let d = -tz
        keep = keep .& (d .> s.near)
        guard maskBits(keep) != 0 else { return outStart }
        let invD = 1 / d  // one division; the contract's u/d etc. become products (≤ 1 ulp apart)
        let ud = tx * invD, vd = -ty * invD
        // 2. Projected mean.
        let mx = ud * s.fx + s.cx, my = vd * s.fy + s.cy
        // 4. EWA Jacobian with clamped tangent; T = J·Wc, Wc = diag(1, −1, −1)·V₃ₓ₃.
        let ux = d * minLanes(maxLanes(ud, V(repeating: -s.limXNeg)), V(repeating: s.limXPos))
        let vy = d * minLanes(maxLanes(vd, V(repeating: -s.limYNeg)), V(repeating: s.limYPos))
        let invD2 = invD * invD
        let j00 = s.fx * invD, j02 = -s.fx * ux * invD2
        let j11 = s.fy * invD, j12 = -s.fy * vy * invD2
        let a0 = j00 * s.v00 - j02 * s.v20, a1 = j00 * s.v01 - j02 * s.v21, a2 = j00 * s.v02 - j02 * s.v22
        let b0 = -j11 * s.v10 - j12 * s.v20, b1 = -j11 * s.v11 - j12 * s.v21, b2 = -j11 * s.v12 - j12 * s.v22
        // 3. World covariance (precomputed), cov2D = T·Σ·Tᵀ.
        let sxx = sp.load(.sxx, g), sxy = sp.load(.sxy, g), sxz = sp.load(.sxz, g)
        let syy = sp.load(.syy, g), syz = sp.load(.syz, g), szz = sp.load(.szz, g)
        let sa0 = sxx * a0 + sxy * a1 + sxz * a2
        let sa1 = sxy * a0 + syy * a1 + syz * a2
        let sa2 = sxz * a0 + syz * a1 + szz * a2
        let sb0 = sxx * b0 + sxy * b1 + sxz * b2
        let sb1 = sxy * b0 + syy * b1 + syz * b2
        let sb2 = sxz * b0 + syz * b1 + szz * b2
        let ca = a0 * sa0 + a1 * sa1 + a2 * sa2
        let b = b0 * sa0 + b1 * sa1 + b2 * sa2
        let cc = b0 * sb0 + b1 * sb1 + b2 * sb2
        let a = ca + SplatTunables.covarianceDilation, c = cc + SplatTunables.covarianceDilation
        // 5. Conic and radius.
        let det = a * c - b * b
        keep = keep .& (det .> 0)
        var tau = sp.load(.tau, g)
        if s.antialias {
            let det0 = ca * cc - b * b
            opacity = opacity * sqrtLanes(maxLanes(det0 / det, zero))
            keep = keep .& (opacity .>= SplatTunables.alphaMin)
            for l in 0..<8 { tau[l] = PreparedSplats.alphaExponent(opacity: opacity[l]) }
        }
        let mid = 0.5 * (a + c)
        let lambda = mid + sqrtLanes(maxLanes(mid * mid - det, V(repeating: SplatTunables.eigenFloor)))
        let radius = (SplatTunables.radiusSigmas * sqrtLanes(lambda)).rounded(.up)
        // The contract's square, tightened to the bounding box of the ellipse where
        // opacity·exp(power) ≥ 1/255 (half-extents √(2τ·a), √(2τ·c), plus a margin): the
        // pixels dropped would be skipped by the alpha test anyway, so the image is the same.
        let hx = minLanes(radius, sqrtLanes(2 * tau * a) + 1e-3)
        let hy = minLanes(radius, sqrtLanes(2 * tau * c) + 1e-3)
        let x0 = (mx - hx - 0.5).rounded(.up), x1 = (mx + hx - 0.5).rounded(.down)
        let y0 = (my - hy - 0.5).rounded(.up), y1 = (my + hy - 0.5).rounded(.down)
        let wMax = V(repeating: Float(s.width - 1)), hMax = V(repeating: Float(s.height - 1))
        keep = keep .& (x1 .>= zero) .& (y1 .>= zero) .& (x0 .<= wMax) .& (y0 .<= hMax) .& (x0 .<= x1) .& (y0 .<= y1)
        guard maskBits(keep) != 0 else { return outStart }
        // 6. Colour: base (C0·dc + 0.5, folded in `prepare`) + higher bands, ≥ 0.
        var cr = sp.load(.red, g), cg = sp.load(.green, g), cb = sp.load(.blue, g)
        if sp.k3 > 0 {
            let dx = px - s.camX, dy = py - s.camY, dz = pz - s.camZ
            let invLen = 1 / sqrtLanes(dx * dx + dy * dy + dz * dz)
            let x = dx * invLen, y = dy * invLen, z = dz * invLen
            let h = UnsafeRawPointer(sp.rest + g &* sp.k3)
            @inline(__always) func add(_ basis: V, _ k: Int) {
                let o = k &* 48  // 3 channels × 8 lanes × 2 bytes
                cr = cr.addingProduct(basis, V(h.loadUnaligned(fromByteOffset: o, as: SIMD8<Float16>.self)))
                cg = cg.addingProduct(basis, V(h.loadUnaligned(fromByteOffset: o &+ 16, as: SIMD8<Float16>.self)))
                cb = cb.addingProduct(basis, V(h.loadUnaligned(fromByteOffset: o &+ 32, as: SIMD8<Float16>.self)))
            }
            typealias SH = SphericalHarmonics
            add(-SH.c1 * y, 0); add(SH.c1 * z, 1); add(-SH.c1 * x, 2)
            if sp.degree > 1 {
                let xx = x * x, yy = y * y, zz = z * z, xy = x * y, yz = y * z, xz = x * z
                add(SH.c2.0 * xy, 3); add(SH.c2.1 * yz, 4); add(SH.c2.2 * (2 * zz - xx - yy), 5)
                add(SH.c2.3 * xz, 6); add(SH.c2.4 * (xx - yy), 7)
                if sp.degree > 2 {
                    add(SH.c3.0 * y * (3 * xx - yy), 8)
                    add(SH.c3.1 * xy * z, 9)
                    add(SH.c3.2 * y * (4 * zz - xx - yy), 10)
                    add(SH.c3.3 * z * (2 * zz - 3 * xx - 3 * yy), 11)
                    add(SH.c3.4 * x * (4 * zz - xx - yy), 12)
                    add(SH.c3.5 * z * (xx - yy), 13)
                    add(SH.c3.6 * x * (xx - 3 * yy), 14)
                }
            }
        }
        let invDet = 1 / det
        let log2e: Float = 1.4426950408889634  // the blender evaluates 2^power
        tmp[0] = mx; tmp[1] = my
        tmp[2] = -0.5 * log2e * (c * invDet); tmp[3] = log2e * (b * invDet); tmp[4] = -0.5 * log2e * (a * invDet)
        tmp[5] = opacity
        tmp[6] = maxLanes(cr, zero); tmp[7] = maxLanes(cg, zero); tmp[8] = maxLanes(cb, zero)
        tmp[9] = d
        tmp[10] = maxLanes(x0, zero); tmp[11] = maxLanes(y0, zero)
        tmp[12] = minLanes(x1, wMax); tmp[13] = minLanes(y1, hMax)
        let shift = SplatTunables.tileShift
        #if arch(x86_64)
        // All eight records by transposes instead of field by field: straight to the output
        // when the whole group is visible (usual: slots are in spatial order), else to a
        // staging area from which the visible ones are copied.
        let fields = UnsafeRawPointer(tmp).assumingMemoryBound(to: Float.self)
        if maskBits(keep) == 0xFF {
            if streamRecords { csimd_stream_records(fields, proj + outStart) } else { csimd_store_records(fields, proj + outStart) }
            csimd_store_tile_rects(fields + 80, Int32(shift), rects + outStart)
            UnsafeMutableRawPointer(keys + outStart).storeBytes(of: unsafeBitCast(tmp[9], to: SIMD8<UInt32>.self),
                                                                as: SIMD8<UInt32>.self)
            UnsafeMutableRawPointer(sources + outStart).copyMemory(from: sp.sourceIndex + g, byteCount: 32)
            return outStart &+ 8
        }
        let stagedRecords = UnsafeMutableRawPointer(tmp + 16).assumingMemoryBound(to: ProjectedSplat.self)
        let stagedRects = UnsafeMutableRawPointer(tmp + 28).assumingMemoryBound(to: TileRect.self)
        csimd_store_records(fields, stagedRecords)
        csimd_store_tile_rects(fields + 80, Int32(shift), stagedRects)
        var out = outStart
        for l in 0..<8 where keep[l] {
            if streamRecords { csimd_stream_record(proj + out, stagedRecords + l) } else { proj[out] = stagedRecords[l] }
            keys[out] = tmp[9][l].bitPattern
            rects[out] = stagedRects[l]
            sources[out] = sp.sourceIndex[g &+ l]
            out &+= 1
        }
        return out
        #else
        var out = outStart
        for l in 0..<8 where keep[l] {
            let rx0 = Int16(tmp[10][l]), ry0 = Int16(tmp[11][l]), rx1 = Int16(tmp[12][l]), ry1 = Int16(tmp[13][l])
            proj[out] = ProjectedSplat(
                mx: tmp[0][l], my: tmp[1][l], ca: tmp[2][l], cb: tmp[3][l], cc: tmp[4][l], opacity: tmp[5][l],
                r: tmp[6][l], g: tmp[7][l], b: tmp[8][l], depth: tmp[9][l], x0: rx0, y0: ry0, x1: rx1, y1: ry1)
            keys[out] = tmp[9][l].bitPattern
            rects[out] = TileRect(x0: UInt16(rx0) >> shift, y0: UInt16(ry0) >> shift,
                                  x1: UInt16(rx1) >> shift, y1: UInt16(ry1) >> shift)
            sources[out] = sp.sourceIndex[g &+ l]
            out &+= 1
        }
        return out
        #endif
    }
}
