// SplatVisibility — how much of each of several splat blocks a camera actually sees: the
// blocks' splats composited front to back at low resolution, each splat's share of the image
// (α·T) summed per block. What a level-of-detail selector needs so as not to spend its budget
// on leaves hidden behind others.
import Foundation
import RenderCore

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
/// deep stacks of hidden splats cost one test each.
public final class SplatVisibility {
    /// Image downscale: a low-resolution pixel is `scale`×`scale` camera pixels.
    public let scale: Int
    /// One projected splat (low-resolution pixels; `power = ca·dx² + cb·dx·dy + cc·dy²`, cut at
    /// `cut` = −ln(255·opacity), where α reaches 1/255).
    private struct Record { var mx, my, ca, cb, cc, cut, opacity: Float; var x0, y0, x1, y1: Int32; var block: Int32 }
    private var records: [Record] = []
    /// Depth keys (a positive Float's bits order as the Float) and record indices, sorted by an
    /// LSD radix sort through the second pair (stable: ties keep block order).
    private var keys: [UInt32] = [], order: [UInt32] = []
    private var keysOut: [UInt32] = [], orderOut: [UInt32] = []
    private var histogram = [Int](repeating: 0, count: 256)
    /// Per low-resolution pixel: transmittance; per 8×8 tile: pixels still open (T ≥ 1/255).
    private var transmittance: [Float] = []
    private var openPixels: [Int32] = []

    /// Tile side (low-resolution pixels) of the finished-tile test.
    static let tile = 8
    /// Transmittance below which a pixel takes no more weight.
    static let done: Float = 1.0 / 255

    public init(scale: Int = 8) { self.scale = max(1, scale) }

    /// Fills `visible[b]` with block `b`'s visible area: Σ over its splats and the pixels they
    /// touch of α·T, in camera pixels² (a fully visible opaque square k pixels wide gives ≈ k²).
    /// `visible` is resized to `blocks.count`. Splats behind the near plane are left out.
    public func measure(_ blocks: [PreparedSplats], camera: Camera, into visible: inout [Float]) {
        if visible.count != blocks.count { visible = [Float](repeating: 0, count: blocks.count) }
        for b in visible.indices { visible[b] = 0 }
        let w = (camera.width + scale - 1) / scale, h = (camera.height + scale - 1) / scale
        guard w > 0, h > 0 else { return }
        project(blocks, camera: camera, width: w, height: h)
        sortByDepth()
        composite(width: w, height: h, into: &visible)
    }

    /// Projects every splat into `records` (and its depth key into `keys`).
    private func project(_ blocks: [PreparedSplats], camera: Camera, width w: Int, height h: Int) {
        records.removeAll(keepingCapacity: true)
        keys.removeAll(keepingCapacity: true)
        order.removeAll(keepingCapacity: true)
        // Room for every splat at once, so that a view showing more of them later grows nothing.
        let total = blocks.reduce(0) { $0 + $1.count }
        if records.capacity < total {
            records.reserveCapacity(total); keys.reserveCapacity(total); order.reserveCapacity(total)
        }
        let s = Float(scale)
        // The renderer's intrinsics, scaled to the low resolution, and the camera frame with x
        // right, y down, z forward: rows of the rotation and the offset.
        let setup = FrameSetup(camera: camera, antialias: false)
        let fx = setup.fx / s, cx = setup.cx / s, fy = setup.fy / s, cy = setup.cy / s
        let r0 = SIMD3<Float>(setup.v00, setup.v01, setup.v02), r1 = -SIMD3<Float>(setup.v10, setup.v11, setup.v12)
        let r2 = -SIMD3<Float>(setup.v20, setup.v21, setup.v22)
        let t0 = setup.v03, t1 = -setup.v13, t2 = -setup.v23
        // The renderer's dilation, 0.3 px², applied in low-resolution pixels (so at least the
        // renderer's); the opacity factor below keeps each splat's coverage.
        let dilation: Float = 0.3
        for (bi, block) in blocks.enumerated() {
            let f = block.fields, stride = block.fieldStride
            let px = f, py = f + stride, pz = f + 2 * stride, op = f + 3 * stride
            let sxx = f + 4 * stride, sxy = f + 5 * stride, sxz = f + 6 * stride
            let syy = f + 7 * stride, syz = f + 8 * stride, szz = f + 9 * stride
            for i in 0..<block.count where op[i] > 0 {
                let p = SIMD3<Float>(px[i], py[i], pz[i])
                let u = (r0 * p).sum() + t0, v = (r1 * p).sum() + t1, d = (r2 * p).sum() + t2
                guard d > camera.near else { continue }
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
                keys.append(d.bitPattern)
                order.append(UInt32(records.count))
                records.append(Record(mx: mx, my: my, ca: -0.5 * c / det, cb: c01 / det, cc: -0.5 * a / det, cut: -cut,
                                      opacity: opacity, x0: x0, y0: y0, x1: x1, y1: y1, block: Int32(bi)))
            }
        }
    }

    /// Composites `records` front to back (in `order`) and adds each one's α·T to its block.
    /// Eight pixels at a time: rows are padded to whole 8-pixel tiles (padding starts finished),
    /// so each vector lies in one tile.
    private func composite(width w: Int, height h: Int, into visible: inout [Float]) {
        let tile = Self.tile, tilesX = (w + tile - 1) / tile, tilesY = (h + tile - 1) / tile
        let stride = tilesX * tile
        if transmittance.count < stride * h { transmittance = [Float](repeating: 1, count: stride * h) }
        if openPixels.count < tilesX * tilesY { openPixels = [Int32](repeating: 0, count: tilesX * tilesY) }
        let pixelArea = Float(scale * scale), done = Self.done
        let laneOffset = SIMD8<Float>(0.5, 1.5, 2.5, 3.5, 4.5, 5.5, 6.5, 7.5)
        let laneX = SIMD8<Float>(0, 1, 2, 3, 4, 5, 6, 7)
        let doneLanes = Lanes(repeating: done)
        transmittance.withUnsafeMutableBufferPointer { T in
            openPixels.withUnsafeMutableBufferPointer { open in
                records.withUnsafeBufferPointer { rec in
                    order.withUnsafeBufferPointer { ord in
                        visible.withUnsafeMutableBufferPointer { vis in
                            for y in 0..<h { for x in 0..<stride { T[y * stride + x] = x < w ? 1 : 0 } }
                            for ty in 0..<tilesY {
                                for tx in 0..<tilesX {
                                    open[ty * tilesX + tx] = Int32((min(w, tx * tile + tile) - tx * tile) * (min(h, ty * tile + tile) - ty * tile))
                                }
                            }
                            let base = UnsafeMutableRawPointer(T.baseAddress!)
                            for k in ord {
                                let r = rec[Int(k)]
                                // Skip a splat whose rectangle meets only finished tiles.
                                let tx0 = Int(r.x0) / tile, tx1 = Int(r.x1) / tile, ty0 = Int(r.y0) / tile, ty1 = Int(r.y1) / tile
                                var anyOpen = false
                                search: for ty in ty0...ty1 {
                                    for tx in tx0...tx1 where open[ty * tilesX + tx] > 0 { anyOpen = true; break search }
                                }
                                guard anyOpen else { continue }
                                var sum = Lanes()
                                // Lanes inside the rectangle: x0 − ½ < x < x1 + ½ (sign-bit masks, see LaneMask).
                                let lo = Lanes(repeating: Float(r.x0) - 0.5), hi = Lanes(repeating: Float(r.x1) + 0.5)
                                let cut = Lanes(repeating: r.cut)
                                for y in Int(r.y0)...Int(r.y1) {
                                    let dy = Float(y) + 0.5 - r.my
                                    let b = r.cb * dy, c = r.cc * dy * dy
                                    let tileRow = (y / tile) * tilesX
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
                                vis[Int(r.block)] += sum.sum() * pixelArea
                            }
                        }
                    }
                }
            }
        }
    }

    /// Sorts `order` by `keys`, ascending (four passes of 8-bit digits; a pass whose digit is
    /// the same for every key is skipped).
    private func sortByDepth() {
        let n = keys.count
        if keysOut.count < n { keysOut = [UInt32](repeating: 0, count: keys.capacity); orderOut = keysOut }
        keys.withUnsafeMutableBufferPointer { key in
            order.withUnsafeMutableBufferPointer { ord in
                keysOut.withUnsafeMutableBufferPointer { keyOut in
                    orderOut.withUnsafeMutableBufferPointer { ordOut in
                        histogram.withUnsafeMutableBufferPointer { count in
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
    }
}
