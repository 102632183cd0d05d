// BlendBlockState — one 4×4-pixel block of a tile while the block kernel blends its splats:
// the per-pixel state as 16-lane vectors, meant to live in registers for a whole list of
// splats (BlockBlendKernel.swift). `blend` is the image contract's step 7 for one
// splat, with the 8-lane kernel's arithmetic operation for operation (same bytes).
import CSIMD

/// A 4×4-pixel block's blend state (lane l: column l & 3, row l >> 2 of the block), in
/// registers while it blends a list.
struct BlendBlockState {
    typealias V = SIMD16<Float>
    /// Transmittance, accumulated colour and output depth (see `BlendTileState`). A finished
    /// pixel holds −T, T the transmittance it finished with (what shows of the background):
    /// negative fails the live test T ≥ `transmittanceMin`, and the magnitude is exact.
    var T, R, G, B, D: V
    /// Depth to test against (read only with the depth test).
    let E: V
    /// Pixel centres in image coordinates (whole numbers + ½, exact).
    let centreX, centreY: V
    /// Pixels of the block not yet finished.
    var livePixels: Int
    /// The block's index in its tile (4·row + column, in blocks).
    let block: Int
    /// The block's state in memory (`BlockBlendScratch.stateVectors` vectors, see the slots below).
    let st: UnsafeMutablePointer<V>

    /// Slots of the state in memory: T, R, G, B; the output depth D; the depth to test against
    /// E; and the colour behind BR, BG, BB.
    static let (tSlot, rSlot, gSlot, bSlot, depthSlot, testDepthSlot) = (0, 1, 2, 3, 4, 5)
    static let (backRSlot, backGSlot, backBSlot) = (6, 7, 8)

    /// Block `block` of the tile with top-left pixel (`x0`, `y0`), its state at `st`.
    @_transparent
    init(_ st: UnsafeMutablePointer<V>, livePixels: Int, block: Int, x0: Int, y0: Int) {
        let x = x0 &+ (block & 3) &* 4, y = y0 &+ (block >> 2) &* 4
        self.block = block
        self.st = st
        T = st[Self.tSlot]; R = st[Self.rSlot]; G = st[Self.gSlot]; B = st[Self.bSlot]; D = st[Self.depthSlot]
        E = st[Self.testDepthSlot]
        // Opaque: left to itself the compiler computes dx and dy on 4 lanes and spreads them
        // with shuffles, more operations than one 16-lane subtraction each.
        centreX = csimd_opaque16(V(0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3) + (Float(x) + 0.5))
        centreY = csimd_opaque16(V(0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3) + (Float(y) + 0.5))
        self.livePixels = livePixels
    }

    /// The transmittance to the background of a block's stored state: T while the pixel is
    /// live, the transmittance it finished with once finished (stored as −T).
    @inline(__always)
    static func visibleT(_ st: UnsafeMutablePointer<V>) -> V {
        st[tSlot].replacing(with: -st[tSlot], where: st[tSlot] .< 0)
    }

    /// The depth to write for a block's stored state: D where T dropped below ½ (finished pixels
    /// always did: they finish below 0.01), the initial depth (E) where it never did.
    @inline(__always)
    static func outputDepth(_ st: UnsafeMutablePointer<V>, visibleT: V) -> V {
        st[depthSlot].replacing(with: st[testDepthSlot], where: .!(visibleT .< SplatTunables.depthOpacity))
    }

    /// Writes the changing state (T, R, G, B, D) back to the block's memory.
    @_transparent
    func store() {
        st[Self.tSlot] = T; st[Self.rSlot] = R; st[Self.gSlot] = G; st[Self.bSlot] = B; st[Self.depthSlot] = D
    }

    /// Blends the chunk's pairs `list[from..<to]` (pair indices into `chunk`, front to back)
    /// one after another, stopping when the block's last pixel finishes.
    @_transparent
    mutating func blend(_ chunk: BlockChunk, _ list: UnsafeMutablePointer<UInt32>, from: Int, to end: Int,
                        depthTest: Bool, writeDepth: Bool) {
        var i = from
        while i < end && livePixels != 0 {
            let k = Int(list[i])
            blend(chunk.records + Int(chunk.slots[k]), inRect: chunk.rectMask(k, block), depthTest: depthTest,
                  writeDepth: writeDepth)
            i &+= 1
        }
    }

    /// Blends splat `sp` (the next one front to back) into the block's pixels in `inRect` (the
    /// lanes inside the splat's rectangle).
    @_transparent
    mutating func blend(_ sp: UnsafeMutablePointer<ProjectedSplat>, inRect: WideMask, depthTest: Bool, writeDepth: Bool) {
        // The mean and conic as broadcast loads: left to itself the compiler loads neighbouring
        // fields as pairs and spends shuffles and blends taking them apart.
        let f = UnsafeRawPointer(sp).assumingMemoryBound(to: Float.self)  // mx, my, ca, cb, cc first
        let mx = csimd_broadcast16(f), my = csimd_broadcast16(f + 1)
        let ca = csimd_broadcast16(f + 2), cb = csimd_broadcast16(f + 3), cc = csimd_broadcast16(f + 4)
        let s = sp.pointee
        let zero = V(repeating: 0)
        let tOld = T
        // Live pixels have T ≥ Tmin (see below): a test that runs beside α·T, not after it.
        var alive = inRect .& .!(tOld .< SplatTunables.transmittanceMin)
        let depth = V(repeating: s.depth)
        if depthTest { alive = alive .& (depth .< E) }
        let dx = centreX - mx, dy = centreY - my
        let k1 = cb * dy, k0 = cc * dy * dy
        // power = ca·dx² + cb·dx·dy + cc·dy² = dx·(ca·dx + cb·dy) + cc·dy² (log2 units).
        let power = k0.addingProduct(dx, dx * ca + k1)
        var alpha = fastExp2(power) * s.opacity
        alpha = alpha.replacing(with: SplatTunables.alphaMax, where: alpha .> SplatTunables.alphaMax)
        let ok = alive .& .!(power .> zero) .& .!(alpha .< SplatTunables.alphaMin)
        let aT = alpha * tOld
        let testT = tOld - aT  // T·(1 − α), reusing α·T
        let finishing = testT .< SplatTunables.transmittanceMin
        let add = ok .& .!finishing
        // R + α·T·r where adding, R elsewhere (masked fused multiply-adds; R + 0·r = R exactly).
        R = R.replacing(with: R.addingProduct(aT, V(repeating: s.r)), where: add)
        G = G.replacing(with: G.addingProduct(aT, V(repeating: s.g)), where: add)
        B = B.replacing(with: B.addingProduct(aT, V(repeating: s.b)), where: add)
        if writeDepth {
            // Depth where accumulated opacity first exceeds ½, i.e. of the splat that takes T
            // below ½: the last one added while T ≥ ½ (one comparison fewer than testing both
            // sides); `outputDepth` keeps the initial depth where T never drops below ½.
            D = D.replacing(with: depth, where: add .& .!(tOld .< SplatTunables.depthOpacity))
        }
        // Finished pixels (in no pattern: no branch) keep what shows through, as −T.
        let finished = ok .& finishing
        T = tOld.replacing(with: testT, where: add).replacing(with: -tOld, where: finished)
        livePixels &-= maskBits(finished).nonzeroBitCount
    }
}
