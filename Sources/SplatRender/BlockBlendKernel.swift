// BlockBlendKernel — the block blend kernel (`BlendKernel.blocks`), written for CPUs with
// 512-bit vectors (AVX-512: 32 vector registers, comparisons into mask registers). This file
// is compiled twice: into SplatRender for the build's baseline CPU (AVX2: correct, slower),
// and as the same file into SplatRenderAVX512 for AVX-512, which the renderer calls when the
// CPU it runs on has AVX-512 (`CPUDispatch`).
//
// The window kernels read and write the tile's per-pixel state (T, R, G, B, D) in L1 for
// every window a splat covers: in a million-splat frame that traffic, not the arithmetic, is
// most of the cost. Here the tile is cut into sixteen 4×4-pixel blocks, one 16-lane vector
// each (lane l: column l & 3, row l >> 2), and the tile's sorted pairs are taken in chunks:
//   1. sub-bin: every pair of the chunk is appended, in order, to the list of each block its
//      rectangle touches (blocks already finished are left out), and its rectangle is kept as
//      the tile's pixel columns and rows it covers, from which a block takes its lane mask
//      with a few integer operations (`BlockChunk`);
//   2. for each block with a list: its state is loaded into registers, the list is blended
//      front to back with no state loads or stores, and the block stops as soon as its last
//      pixel finishes; the state goes back to memory for the next chunk. Two blocks, paired
//      by list length, are stepped together: two independent chains through T (one block at
//      a time measured 1.5 ms slower at a million splats).
// The per-pixel arithmetic is the 8-lane kernel's, operation for operation (dx is the exact
// pixel centre minus the mean, and so on), so the bytes are the same. Partial tiles: pixels
// outside the image start finished (T = 0) and are never written.
import CSIMD
import RenderCore

/// A worker's memory for the block kernel: per block its state (`stateVectors` vectors of 16
/// lanes, slots as in `BlendBlockState`) and pixels still live; the blocks in list-length
/// order; the current chunk's slots, block masks and rectangle bits (`BlockChunk`); and each
/// block's list of the chunk's pair indices.
enum BlockBlendScratch {
    /// Pairs sub-binned at a time (a multiple of 16).
    static let chunkPairs = 256
    /// Vectors of state per block.
    static let stateVectors = 9
    /// UInt32 entries per block list (whole vectors are stored past the end).
    static let listStride = chunkPairs + 16
    static let stateBytes = 16 * stateVectors * 64
    static let liveOffset = stateBytes
    static let orderOffset = liveOffset + 64
    static let slotsOffset = orderOffset + 64
    static let masksOffset = slotsOffset + chunkPairs * 4
    static let rowsOffset = masksOffset + chunkPairs * 4
    static let colsOffset = rowsOffset + chunkPairs * 8
    static let listsOffset = colsOffset + chunkPairs * 4
    /// Bytes of one worker's scratch.
    static let bytes = listsOffset + 16 * listStride * 4
}

/// The block kernel's functions (no state of its own: all of it is in the worker's scratch).
enum BlockBlendKernel {
    /// Blends tile `t` (row-major tile index) block by block with worker scratch `scratch`
    /// (`BlockBlendScratch.bytes`, 64-byte aligned).
    @_transparent  // one copy per depth flag combination: no flag tests in the loops
    static func blendTile(_ t: Int, _ c: BlendContext, _ scratch: UnsafeMutableRawPointer, depthTest: Bool,
                                writeDepth: Bool) {
        typealias V = SIMD16<Float>
        typealias I = SIMD16<Int32>
        let K = BlockBlendScratch.chunkPairs, L = BlockBlendScratch.listStride
        let state = scratch.assumingMemoryBound(to: V.self)
        let live = (scratch + BlockBlendScratch.liveOffset).assumingMemoryBound(to: Int32.self)
        let order = (scratch + BlockBlendScratch.orderOffset).assumingMemoryBound(to: UInt32.self)
        let slots = (scratch + BlockBlendScratch.slotsOffset).assumingMemoryBound(to: UInt32.self)
        let masks = (scratch + BlockBlendScratch.masksOffset).assumingMemoryBound(to: UInt32.self)
        let lists = (scratch + BlockBlendScratch.listsOffset).assumingMemoryBound(to: UInt32.self)
        let chunkData = BlockChunk(records: c.records, slots: slots,
                                   cols: (scratch + BlockBlendScratch.colsOffset).assumingMemoryBound(to: UInt32.self),
                                   rows: (scratch + BlockBlendScratch.rowsOffset).assumingMemoryBound(to: UInt64.self))
        let tx = t % c.tilesX, ty = t / c.tilesX
        let x0 = tx << SplatTunables.tileShift, y0 = ty << SplatTunables.tileShift
        let laneColumn = I(0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3)
        let laneRow = I(0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3)

        // Initial state: T = 1 inside the image (0 outside: finished), the colour behind.
        var liveBlocks: UInt32 = 0
        for b in 0..<16 {
            let st = state + b &* BlockBlendScratch.stateVectors
            let px = laneColumn &+ Int32(truncatingIfNeeded: x0 &+ (b & 3) &* 4)
            let py = laneRow &+ Int32(truncatingIfNeeded: y0 &+ (b >> 2) &* 4)
            let inImage = (px .< I(repeating: Int32(truncatingIfNeeded: c.width)))
                .& (py .< I(repeating: Int32(truncatingIfNeeded: c.height)))
            typealias Slot = BlendBlockState
            st[Slot.tSlot] = V(repeating: 0).replacing(with: 1, where: inImage)
            st[Slot.rSlot] = .zero; st[Slot.gSlot] = .zero; st[Slot.bSlot] = .zero
            if !depthTest {
                st[Slot.testDepthSlot] = V(repeating: .infinity)
                st[Slot.backRSlot] = V(repeating: c.background.x); st[Slot.backGSlot] = V(repeating: c.background.y)
                st[Slot.backBSlot] = V(repeating: c.background.z)
            } else {
                for l in 0..<16 {
                    (st[Slot.testDepthSlot][l], st[Slot.backRSlot][l], st[Slot.backGSlot][l], st[Slot.backBSlot][l]) =
                        inImage[l] ? BlendTileState.backdrop(c, Int(py[l]) &* c.width &+ Int(px[l])) : (.infinity, 0, 0, 0)
                }
            }
            st[Slot.depthSlot] = st[Slot.testDepthSlot]
            let n = maskBits(inImage).nonzeroBitCount
            live[b] = Int32(truncatingIfNeeded: n)
            if n > 0 { liveBlocks |= 1 << UInt32(b) }
        }

        let begin = Int(c.start[t]), end = Int(c.start[t &+ 1])
        // Sub-binning spends a few cycles a pair: records must be asked for well ahead.
        let ahead = SplatTunables.blockPrefetchDistance
        for p in begin..<min(end, begin &+ ahead) { prefetchRecord(c.records + Int(c.pairs[p] &>> 32)) }
        var chunk = begin
        while chunk < end && liveBlocks != 0 {
            let chunkEnd = min(end, chunk &+ K)
            // 1. Sub-bin, 16 pairs at a time: each pair's slot, rectangle bits and the live blocks
            //    it touches (bit 4·by + bx); entries past the chunk's end get no blocks.
            var n = 0
            while n < chunkEnd &- chunk {
                let k = chunk &+ n, count = min(16, chunkEnd &- k)
                var j = k
                while j < min(end &- ahead, k &+ count) { prefetchRecord(c.records + Int(c.pairs[j &+ ahead] &>> 32)); j &+= 1 }
                chunkData.subBin(c.pairs + k, count: count, at: n, tileX: x0, tileY: y0, live: liveBlocks, masks: masks)
                n &+= count
            }
            let padded = (n &+ 15) & ~15
            // 2. Each live block takes its splats, in order, and blends them with its state in
            //    registers, two blocks at a time (two independent dependency chains). A pair
            //    steps together only while both lists last, so blocks are paired by list length:
            //    `order` holds count << 4 | block, longest first.
            var todo = liveBlocks, m = 0
            while todo != 0 {
                let b = todo.trailingZeroBitCount
                todo &= todo &- 1
                let count = csimd_select_bit(masks, Int32(truncatingIfNeeded: padded),
                                             Int32(truncatingIfNeeded: b), lists + b &* L)
                guard count > 0 else { continue }
                var j = m
                let key = UInt32(truncatingIfNeeded: count) &<< 4 | UInt32(truncatingIfNeeded: b)
                while j > 0 && order[j &- 1] < key { order[j] = order[j &- 1]; j &-= 1 }
                order[j] = key
                m &+= 1
            }
            var k = 0
            while k < m {
                let a = Int(order[k] & 15), na = Int(order[k] &>> 4)
                let b = k &+ 1 < m ? Int(order[k &+ 1] & 15) : -1, nb = k &+ 1 < m ? Int(order[k &+ 1] &>> 4) : 0
                liveBlocks &= ~blendBlocks(a, na, b, nb, x0, y0, chunkData, lists, state, live,
                                           depthTest: depthTest, writeDepth: writeDepth)
                k &+= 2
            }
            chunk = chunkEnd
        }
        finishBlocks(x0, y0, c, state, writeDepth: writeDepth)
    }

    /// Blends block `a`'s list (`na` pair indices into `chunk`, front to back) and block `b`'s (`nb`; `b` < 0: no
    /// second block) with their states in registers, stepping both together while both have
    /// splats and live pixels, then whichever is left on its own. Returns the finished blocks
    /// as bits.
    @_transparent  // mandatory inlining: the states must stay in registers across the loops
    static func blendBlocks(_ a: Int, _ na: Int, _ b: Int, _ nb: Int, _ x0: Int, _ y0: Int,
                            _ chunk: BlockChunk, _ lists: UnsafeMutablePointer<UInt32>,
                            _ state: UnsafeMutablePointer<SIMD16<Float>>, _ live: UnsafeMutablePointer<Int32>,
                            depthTest: Bool, writeDepth: Bool) -> UInt32 {
        let L = BlockBlendScratch.listStride, S = BlockBlendScratch.stateVectors
        let b = max(b, 0)  // with nb = 0 the second block is loaded but never stepped or stored
        let listA = lists + a &* L, listB = lists + b &* L
        var A = BlendBlockState(state + a &* S, livePixels: Int(live[a]), block: a, x0: x0, y0: y0)
        var B = BlendBlockState(state + b &* S, livePixels: Int(live[b]), block: b, x0: x0, y0: y0)
        var i = 0
        let both = min(na, nb)
        while i < both {
            let ka = Int(listA[i]), kb = Int(listB[i])
            A.blend(chunk.records + Int(chunk.slots[ka]), inRect: chunk.rectMask(ka, a), depthTest: depthTest,
                    writeDepth: writeDepth)
            B.blend(chunk.records + Int(chunk.slots[kb]), inRect: chunk.rectMask(kb, b), depthTest: depthTest,
                    writeDepth: writeDepth)
            i &+= 1
            if A.livePixels == 0 || B.livePixels == 0 { break }
        }
        A.blend(chunk, listA, from: i, to: na, depthTest: depthTest, writeDepth: writeDepth)
        A.store()
        live[a] = Int32(truncatingIfNeeded: A.livePixels)
        var finished: UInt32 = A.livePixels == 0 ? 1 << UInt32(a) : 0
        if nb > 0 {
            B.blend(chunk, listB, from: i, to: nb, depthTest: depthTest, writeDepth: writeDepth)
            B.store()
            live[b] = Int32(truncatingIfNeeded: B.livePixels)
            if B.livePixels == 0 { finished |= 1 << UInt32(b) }
        }
        return finished
    }

    /// Writes every block's C + T·background (8-bit RGBA, alpha 255) and, with `writeDepth`, D
    /// to the target, skipping pixels outside the image.
    @inline(__always)
    static func finishBlocks(_ x0: Int, _ y0: Int, _ c: BlendContext, _ state: UnsafeMutablePointer<SIMD16<Float>>,
                             writeDepth: Bool) {
        for b in 0..<16 {
            let bx = x0 &+ (b & 3) &* 4, by = y0 &+ (b >> 2) &* 4
            guard bx < c.width, by < c.height else { continue }
            let st = state + b &* BlockBlendScratch.stateVectors
            typealias Slot = BlendBlockState
            let T = BlendBlockState.visibleT(st)
            let packed = BlendTileState.toByte(st[Slot.rSlot].addingProduct(T, st[Slot.backRSlot]))
                | (BlendTileState.toByte(st[Slot.gSlot].addingProduct(T, st[Slot.backGSlot])) &<< 8)
                | (BlendTileState.toByte(st[Slot.bSlot].addingProduct(T, st[Slot.backBSlot])) &<< 16)
                | SIMD16<UInt32>(repeating: 0xFF00_0000)
            let D = BlendBlockState.outputDepth(st, visibleT: T)
            if bx &+ 4 <= c.width && by &+ 4 <= c.height {
                let p = by &* c.width &+ bx
                @inline(__always) func put(_ row: Int, _ v: SIMD4<UInt32>, _ d: SIMD4<Float>) {
                    UnsafeMutableRawPointer(c.color + (p &+ row &* c.width)).storeBytes(of: v, as: SIMD4<UInt32>.self)
                    if writeDepth {
                        UnsafeMutableRawPointer(c.depth + (p &+ row &* c.width)).storeBytes(of: d, as: SIMD4<Float>.self)
                    }
                }
                put(0, packed.lowHalf.lowHalf, D.lowHalf.lowHalf); put(1, packed.lowHalf.highHalf, D.lowHalf.highHalf)
                put(2, packed.highHalf.lowHalf, D.highHalf.lowHalf); put(3, packed.highHalf.highHalf, D.highHalf.highHalf)
            } else {
                for l in 0..<16 {
                    let x = bx &+ (l & 3), y = by &+ (l >> 2)
                    guard x < c.width && y < c.height else { continue }
                    c.color[y &* c.width &+ x] = packed[l]
                    if writeDepth { c.depth[y &* c.width &+ x] = D[l] }
                }
            }
        }
    }
}
