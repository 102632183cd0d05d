// SplatVisibility — how much of each of several splat blocks a camera actually sees: the
// blocks' splats composited front to back at low resolution, each splat's share of the image
// (α·T) summed per block. What a level-of-detail selector needs so as not to spend its budget
// on leaves hidden behind others.
import Foundation
import RenderCore
import Workers

/// Visible screen area per block of splats, for one camera. Reuses its buffers: once it has
/// seen a given image size and splat count, `measure` allocates nothing.
///
/// The estimate projects the blocks' splats as `SplatRenderer` does (EWA with the off-axis
/// intrinsics, the 0.3 px² dilation), at 1/`scale` of the camera's resolution, composites them
/// front to back by camera depth, and adds each splat's weight α·T — its share of the image —
/// to its block. The dilation is applied at the low resolution with the splat's opacity lowered
/// to keep its coverage (α·area), so splats smaller than a coarse pixel are neither lost between
/// pixel centres nor blown up. Pixels stop taking weight once their transmittance is below
/// 1/255, and a splat whose rectangle meets only finished 8×8-pixel tiles is skipped whole —
/// deep stacks of hidden splats cost one test each. The work is cut into fixed bands (`bands`)
/// that `threads` workers share, so the areas are the same on any number of threads.
public final class SplatVisibility {
    /// Image downscale: a low-resolution pixel is `scale`×`scale` camera pixels.
    public let scale: Int
    /// Threads measuring (the caller's among them), at most `bands`.
    public let threads: Int
    /// The work's fixed partition, the same whatever `threads` is (so the areas are too): the
    /// splats are projected in `bands` equal runs, and the image's 8×8 tile rows are dealt to
    /// `bands` bands in turn (tile row ty to band ty mod `bands`), each composited on its own
    /// with its own per-block sums, added in band order at the end.
    public static let bands = 2
    /// One projected splat (low-resolution pixels; `power = ca·dx² + cb·dx·dy + cc·dy²`, cut at
    /// `cut` = −ln(255·opacity), where α reaches 1/255).
    private struct Record { var mx, my, ca, cb, cc, cut, opacity: Float; var x0, y0, x1, y1: Int32; var block: Int32 }
    /// What one band projects, sorts and composites: its run's records and depth keys (then
    /// sorted), the radix sort's buffers, its records in depth order, its per-block sums.
    private final class Band {
        var records: [Record] = []
        var keys: [UInt32] = []
        var order: [UInt32] = [], keysOut: [UInt32] = [], orderOut: [UInt32] = []
        var histogram = [Int](repeating: 0, count: 256)
        var sorted: [Record] = []
        var area: [Float] = []
    }
    private let bandWork: [Band]
    private let pool: WorkerPool<SplatVisibility>?
    /// Every band's records merged in depth order (ties: the earlier run, so block order).
    private var sorted: [Record] = []
    /// Per band: the next record `mergeRuns` takes from its run.
    private var mergeNext = [Int](repeating: 0, count: SplatVisibility.bands)
    /// Per low-resolution pixel: transmittance; per 8×8 tile: pixels still open (T ≥ 1/255).
    private var transmittance: [Float] = []
    private var openPixels: [Int32] = []
    /// The job `measure` hands its workers: what to project, the frame, and (while compositing)
    /// the image buffers.
    private var job = Job()
    private struct Job {
        var blocks: [PreparedSplats] = []
        var setup: FrameSetup?
        var near: Float = 0
        var width = 0, height = 0
        var transmittance: UnsafeMutableRawPointer?
        var openPixels: UnsafeMutablePointer<Int32>?
        var compositing = false
    }

    /// Tile side (low-resolution pixels) of the finished-tile test.
    static let tile = 8
    /// Transmittance below which a pixel takes no more weight.
    static let done: Float = 1.0 / 255

    public init(scale: Int = 8, threads: Int = 1) {
        self.scale = max(1, scale)
        self.threads = max(1, min(threads, Self.bands))
        bandWork = (0..<Self.bands).map { _ in Band() }
        pool = self.threads > 1 ? WorkerPool(threads: self.threads) : nil
    }

    /// Fills `visible[b]` with block `b`'s visible area: Σ over its splats and the pixels they
    /// touch of α·T, in camera pixels² (a fully visible opaque square k pixels wide gives ≈ k²).
    /// `visible` is resized to `blocks.count`. Splats behind the near plane are left out.
    public func measure(_ blocks: [PreparedSplats], camera: Camera, into visible: inout [Float]) {
        Self.zero(&visible, count: blocks.count)
        let w = (camera.width + scale - 1) / scale, h = (camera.height + scale - 1) / scale
        guard w > 0, h > 0 else { return }
        job.blocks = blocks
        job.setup = FrameSetup(camera: camera, antialias: false)
        job.near = camera.near
        job.width = w; job.height = h
        job.compositing = false
        runBands()
        mergeRuns()
        prepareImage()
        transmittance.withUnsafeMutableBytes { t in
            openPixels.withUnsafeMutableBufferPointer { open in
                job.transmittance = t.baseAddress
                job.openPixels = open.baseAddress
                job.compositing = true
                runBands()
                job.transmittance = nil; job.openPixels = nil
            }
        }
        for band in bandWork {
            for b in visible.indices { visible[b] += band.area[b] }
        }
        // Let go of the caller's array (emptying it in place would copy it: it is shared).
        job.blocks = []
    }

    /// Runs the current stage (projection or compositing) for every band: spread over the
    /// workers, or one after another on this thread.
    private func runBands() {
        if let pool {
            pool.run(self, runVisibilityStage)
        } else {
            for b in 0..<Self.bands { runStage(band: b) }
        }
    }

    fileprivate func runStage(band b: Int) {
        if job.compositing { composite(band: b) } else { project(band: b) }
    }

    /// Projects band `b`'s run of the splats (the b-th of `bands` equal parts of all blocks'
    /// splats in order) into its records and depth keys.
    private func project(band b: Int) {
        let out = bandWork[b]
        out.records.removeAll(keepingCapacity: true)
        out.keys.removeAll(keepingCapacity: true)
        let blocks = job.blocks
        let total = blocks.reduce(0) { $0 + $1.count }
        let first = total * b / Self.bands, last = total * (b + 1) / Self.bands
        // Room for the whole run and then some, so that a view showing a little more later
        // grows nothing.
        Self.reserve(&out.records, last - first)
        Self.reserve(&out.keys, last - first)
        guard let setup = job.setup else { return }
        let s = Float(scale), w = job.width, h = job.height, near = job.near
        // The renderer's intrinsics, scaled to the low resolution, and the camera frame with x
        // right, y down, z forward: rows of the rotation and the offset.
        let fx = setup.fx / s, cx = setup.cx / s, fy = setup.fy / s, cy = setup.cy / s
        let r0 = SIMD3<Float>(setup.v00, setup.v01, setup.v02), r1 = -SIMD3<Float>(setup.v10, setup.v11, setup.v12)
        let r2 = -SIMD3<Float>(setup.v20, setup.v21, setup.v22)
        let t0 = setup.v03, t1 = -setup.v13, t2 = -setup.v23
        // The renderer's dilation, 0.3 px², applied in low-resolution pixels (so at least the
        // renderer's); the opacity factor below keeps each splat's coverage.
        let dilation: Float = 0.3
        var start = 0
        for (bi, block) in blocks.enumerated() {
            defer { start += block.count }
            let lo = max(first, start) - start, hi = min(last, start + block.count) - start
            guard lo < hi else { continue }
            let f = block.fields, stride = block.fieldStride
            let px = f, py = f + stride, pz = f + 2 * stride, op = f + 3 * stride
            let sxx = f + 4 * stride, sxy = f + 5 * stride, sxz = f + 6 * stride
            let syy = f + 7 * stride, syz = f + 8 * stride, szz = f + 9 * stride
            for i in lo..<hi where op[i] > 0 {
                let p = SIMD3<Float>(px[i], py[i], pz[i])
                let u = (r0 * p).sum() + t0, v = (r1 * p).sum() + t1, d = (r2 * p).sum() + t2
                guard d > near else { continue }
                let mx = fx * u / d + cx, my = fy * v / d + cy
                // Rows of J·W (model → low-resolution pixels), J = [[fx/d, 0, −fx·u/d²], [0, fy/d, −fy·v/d²]].
                let a0 = (fx / d) * r0 - (fx * u / (d * d)) * r2, a1 = (fy / d) * r1 - (fy * v / (d * d)) * r2
                @inline(__always) func sigma(_ x: SIMD3<Float>) -> SIMD3<Float> {
                    SIMD3(sxx[i] * x.x + sxy[i] * x.y + sxz[i] * x.z,
                          sxy[i] * x.x + syy[i] * x.y + syz[i] * x.z,
                          sxz[i] * x.x + syz[i] * x.y + szz[i] * x.z)
                }
                let sa0 = sigma(a0)
                let c00 = (sa0 * a0).sum(), c01 = (sa0 * a1).sum(), c11 = (sigma(a1) * a1).sum()
                let rawDet = max(c00 * c11 - c01 * c01, 0)
                let a = c00 + dilation, c = c11 + dilation
                let det = a * c - c01 * c01
                guard det > 0 else { continue }
                let opacity = min(op[i] * (rawDet / det).squareRoot(), 0.99)
                guard opacity >= 1.0 / 255 else { continue }
                let cut = log(255 * opacity)
                let mid = 0.5 * (a + c)
                let radius = (2 * cut * (mid + max(0.1, mid * mid - det).squareRoot())).squareRoot()
                guard radius.isFinite, abs(mx) < 1e6, abs(my) < 1e6 else { continue }
                let x0 = max(0, Int32((mx - radius).rounded(.down))), x1 = min(Int32(w - 1), Int32((mx + radius).rounded(.up)))
                let y0 = max(0, Int32((my - radius).rounded(.down))), y1 = min(Int32(h - 1), Int32((my + radius).rounded(.up)))
                guard x0 <= x1, y0 <= y1 else { continue }
                out.keys.append(d.bitPattern)
                out.records.append(Record(mx: mx, my: my, ca: -0.5 * c / det, cb: c01 / det, cc: -0.5 * a / det, cut: -cut,
                                          opacity: opacity, x0: x0, y0: y0, x1: x1, y1: y1, block: Int32(bi)))
            }
        }
        Self.sortByDepth(out)
    }

    /// Merges the bands' depth-sorted runs into `sorted` (stable: on equal depths the earlier
    /// run's first, as one sort of all the splats in block order would have them).
    private func mergeRuns() {
        sorted.removeAll(keepingCapacity: true)
        let total = bandWork.reduce(0) { $0 + $1.sorted.count }
        Self.reserve(&sorted, total)
        for b in mergeNext.indices { mergeNext[b] = 0 }
        for _ in 0..<total {
            var pick = -1, best = UInt32.max
            for (b, band) in bandWork.enumerated() where mergeNext[b] < band.sorted.count {
                let k = band.keys[mergeNext[b]]
                if pick < 0 || k < best { pick = b; best = k }
            }
            sorted.append(bandWork[pick].sorted[mergeNext[pick]])
            mergeNext[pick] += 1
        }
    }

    /// Sets every pixel open (T = 1; the padding that rounds rows up to whole tiles finished)
    /// and counts each tile's open pixels; zeroes the bands' sums.
    private func prepareImage() {
        let w = job.width, h = job.height, tile = Self.tile
        let tilesX = (w + tile - 1) / tile, tilesY = (h + tile - 1) / tile, stride = tilesX * tile
        if transmittance.count < stride * h { transmittance = [Float](repeating: 1, count: stride * h) }
        if openPixels.count < tilesX * tilesY { openPixels = [Int32](repeating: 0, count: tilesX * tilesY) }
        for y in 0..<h { for x in 0..<stride { transmittance[y * stride + x] = x < w ? 1 : 0 } }
        for ty in 0..<tilesY {
            for tx in 0..<tilesX {
                openPixels[ty * tilesX + tx] = Int32((min(w, tx * tile + tile) - tx * tile) * (min(h, ty * tile + tile) - ty * tile))
            }
        }
        for band in bandWork { Self.zero(&band.area, count: job.blocks.count) }
    }

    /// Composites `sorted` front to back over band `b`'s tile rows and adds each splat's α·T
    /// there to its block, in the band's own sums. Eight pixels at a time: rows are padded to
    /// whole 8-pixel tiles (padding starts finished), so each vector lies in one tile.
    private func composite(band: Int) {
        guard let base = job.transmittance, let open = job.openPixels else { return }
        let tile = Self.tile, tilesX = (job.width + tile - 1) / tile, bands = Self.bands
        let stride = tilesX * tile
        let pixelArea = Float(scale * scale), done = Self.done
        let laneOffset = SIMD8<Float>(0.5, 1.5, 2.5, 3.5, 4.5, 5.5, 6.5, 7.5)
        let laneX = SIMD8<Float>(0, 1, 2, 3, 4, 5, 6, 7)
        let doneLanes = Lanes(repeating: done)
        let out = bandWork[band]
        sorted.withUnsafeBufferPointer { rec in
            out.area.withUnsafeMutableBufferPointer { vis in
                for r in rec {
                    // This band's first tile row at or after the splat's top; none: nothing here.
                    let ty0 = Int(r.y0) / tile, ty1 = Int(r.y1) / tile
                    let firstRow = ty0 + (band - ty0 % bands + bands) % bands
                    guard firstRow <= ty1 else { continue }
                    // Skip a splat whose rectangle meets only finished tiles.
                    let tx0 = Int(r.x0) / tile, tx1 = Int(r.x1) / tile
                    var anyOpen = false
                    search: for ty in Swift.stride(from: firstRow, through: ty1, by: bands) {
                        for tx in tx0...tx1 where open[ty * tilesX + tx] > 0 { anyOpen = true; break search }
                    }
                    guard anyOpen else { continue }
                    var sum = Lanes()
                    // Lanes inside the rectangle: x0 − ½ < x < x1 + ½ (sign-bit masks, see LaneMask).
                    let lo = Lanes(repeating: Float(r.x0) - 0.5), hi = Lanes(repeating: Float(r.x1) + 0.5)
                    let cut = Lanes(repeating: r.cut)
                    for ty in Swift.stride(from: firstRow, through: ty1, by: bands) {
                        let tileRow = ty * tilesX
                        for y in max(Int(r.y0), ty * tile)...min(Int(r.y1), ty * tile + tile - 1) {
                            let dy = Float(y) + 0.5 - r.my
                            let b = r.cb * dy, c = r.cc * dy * dy
                            for tx in tx0...tx1 where open[tileRow + tx] > 0 {
                                let x = tx * tile
                                let offset = (y * stride + x) * MemoryLayout<Float>.size
                                let t = base.loadUnaligned(fromByteOffset: offset, as: Lanes.self)
                                let dx = Lanes(repeating: Float(x) - r.mx) + laneOffset
                                let power = (r.ca * dx + b) * dx + c
                                let xs = Lanes(repeating: Float(x)) + laneX
                                let wasOpen = less(t, doneLanes)             // sign set: finished before
                                let live = butNot(both(both(less(lo, xs), less(xs, hi)), less(cut, power)), wasOpen)
                                let alpha = selectSign(live, r.opacity * fastExp(power), else: Lanes())
                                let next = t * (1 - alpha)
                                sum += t - next
                                base.storeBytes(of: next, toByteOffset: offset, as: Lanes.self)
                                let finished = signBits(butNot(less(next, doneLanes), wasOpen))
                                if finished != 0 { open[tileRow + tx] -= Int32(finished.nonzeroBitCount) }
                            }
                        }
                    }
                    vis[Int(r.block)] += sum.sum() * pixelArea
                }
            }
        }
    }

    /// Sorts `band`'s records by depth into `band.sorted` and its keys into ascending order:
    /// an LSD radix sort of (key, index) pairs, four passes of 8-bit digits, a pass whose digit
    /// is the same for every key skipped (stable: ties keep run order).
    private static func sortByDepth(_ band: Band) {
        let n = band.keys.count
        band.order.removeAll(keepingCapacity: true)
        reserve(&band.order, band.keys.capacity)
        for i in 0..<UInt32(n) { band.order.append(i) }
        if band.keysOut.count < n { band.keysOut = [UInt32](repeating: 0, count: band.keys.capacity); band.orderOut = band.keysOut }
        band.keys.withUnsafeMutableBufferPointer { key in
            band.order.withUnsafeMutableBufferPointer { ord in
                band.keysOut.withUnsafeMutableBufferPointer { keyOut in
                    band.orderOut.withUnsafeMutableBufferPointer { ordOut in
                        band.histogram.withUnsafeMutableBufferPointer { count in
                            for shift in stride(from: UInt32(0), to: 32, by: 8) {
                                for b in 0..<256 { count[b] = 0 }
                                for i in 0..<n { count[Int((key[i] >> shift) & 255)] += 1 }
                                if count.contains(n) { continue }
                                var sum = 0
                                for b in 0..<256 { let c = count[b]; count[b] = sum; sum += c }
                                for i in 0..<n {
                                    let b = Int((key[i] >> shift) & 255)
                                    keyOut[count[b]] = key[i]
                                    ordOut[count[b]] = ord[i]
                                    count[b] += 1
                                }
                                for i in 0..<n { key[i] = keyOut[i]; ord[i] = ordOut[i] }
                            }
                        }
                    }
                }
            }
        }
        band.sorted.removeAll(keepingCapacity: true)
        reserve(&band.sorted, band.records.capacity)
        band.records.withUnsafeBufferPointer { rec in
            for k in band.order { band.sorted.append(rec[Int(k)]) }
        }
    }

    /// Makes room for `count` elements in `array`, with half as much again when it must grow,
    /// so that the slowly changing splat counts of a moving camera settle into no allocation.
    private static func reserve<T>(_ array: inout [T], _ count: Int) {
        if array.capacity < count { array.reserveCapacity(count + count / 2) }
    }

    /// Sets `array` to `count` zeros, reusing its storage (growing it as `reserve` does).
    private static func zero(_ array: inout [Float], count: Int) {
        array.removeAll(keepingCapacity: true)
        reserve(&array, count)
        array.append(contentsOf: repeatElement(0, count: count))
    }
}

/// The workers' entry point: a plain function, so passing it to the pool captures nothing (as
/// `runSplatStage`). Worker `worker` takes bands `worker`, `worker + threads`, ….
private func runVisibilityStage(_ v: SplatVisibility, _ worker: Int) {
    for b in stride(from: worker, to: SplatVisibility.bands, by: v.threads) { v.runStage(band: b) }
}
