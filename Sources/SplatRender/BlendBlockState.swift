// BlendBlockState — one 4×4-pixel block of a tile while the block kernel blends its splats:
// the per-pixel state as 16-lane vectors, meant to live in registers for a whole list of
// splats (SplatRenderer+BlockBlend.swift). `blend` is the image contract's step 7 for one
// splat, with the 8-lane kernel's arithmetic operation for operation (same bytes).

/// A 4×4-pixel block's blend state (lane l: column l & 3, row l >> 2 of the block).
struct BlendBlockState {
    typealias V = SIMD16<Float>
    /// Transmittance, accumulated colour and output depth (see `BlendTileState`).
    var T, R, G, B, D: V
    /// Depth to test against and the colour behind the splats.
    let E, BR, BG, BB: V
    /// Pixel centres in image coordinates (whole numbers + ½, exact).
    let centreX, centreY: V
    /// Pixels of the block not yet finished.
    var livePixels: Int

    /// The block with top-left pixel (`x`, `y`), its state read from `st` (9 vectors: T, R, G,
    /// B, D, E, BR, BG, BB).
    @_transparent
    init(_ st: UnsafeMutablePointer<V>, livePixels: Int, x: Int, y: Int) {
        T = st[0]; R = st[1]; G = st[2]; B = st[3]; D = st[4]
        E = st[5]; BR = st[6]; BG = st[7]; BB = st[8]
        centreX = V(0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3) + (Float(x) + 0.5)
        centreY = V(0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3) + (Float(y) + 0.5)
        self.livePixels = livePixels
    }

    /// Writes the changing part of the state (T, R, G, B, D) back to `st`.
    @_transparent
    func store(_ st: UnsafeMutablePointer<V>) {
        st[0] = T; st[1] = R; st[2] = G; st[3] = B; st[4] = D
    }

    /// Blends the splats of `list[from..<to]` (slots, front to back) one after another, stopping
    /// when the block's last pixel finishes.
    @_transparent
    mutating func blend(_ records: UnsafeMutablePointer<ProjectedSplat>, _ list: UnsafeMutablePointer<UInt32>,
                        from: Int, to end: Int, depthTest: Bool, writeDepth: Bool) {
        var i = from
        while i < end && livePixels != 0 {
            blend(records[Int(list[i])], depthTest: depthTest, writeDepth: writeDepth)
            i &+= 1
        }
    }

    /// Blends splat `s` (the next one front to back) into the block's pixels inside its rectangle.
    @_transparent
    mutating func blend(_ s: ProjectedSplat, depthTest: Bool, writeDepth: Bool) {
        let zero = V(repeating: 0)
        // Pixel x is inside x0…x1 exactly when its centre x + ½ lies in (x0, x1 + 1).
        let inRect = (centreX .> Float(s.x0)) .& (centreX .< Float(s.x1) + 1)
            .& (centreY .> Float(s.y0)) .& (centreY .< Float(s.y1) + 1)
        let tOld = T
        var alive = inRect .& (tOld .> zero)
        let depth = V(repeating: s.depth)
        if depthTest { alive = alive .& (depth .< E) }
        let dx = centreX - s.mx, dy = centreY - s.my
        let k1 = s.cb * dy, k0 = s.cc * dy * dy
        // power = ca·dx² + cb·dx·dy + cc·dy² = dx·(ca·dx + cb·dy) + cc·dy² (log2 units).
        let power = k0.addingProduct(dx, dx * s.ca + k1)
        var alpha = fastExp2(power) * s.opacity
        alpha = alpha.replacing(with: SplatTunables.alphaMax, where: alpha .> SplatTunables.alphaMax)
        let ok = alive .& .!(power .> zero) .& .!(alpha .< SplatTunables.alphaMin)
        let aT = alpha * tOld
        let testT = tOld - aT  // T·(1 − α), reusing α·T
        let finishing = testT .< SplatTunables.transmittanceMin
        let add = ok .& .!finishing
        let w = zero.replacing(with: aT, where: add)
        R = R.addingProduct(w, V(repeating: s.r))
        G = G.addingProduct(w, V(repeating: s.g))
        B = B.addingProduct(w, V(repeating: s.b))
        T = tOld.replacing(with: testT, where: add)
        if writeDepth {
            // Depth where accumulated opacity first exceeds ½: T drops below ½ here.
            let half = SplatTunables.depthOpacity
            D = D.replacing(with: depth, where: add .& (testT .< half) .& .!(tOld .< half))
        }
        // Finished pixels (in no pattern: no branch) add what shows through, then T = 0.
        let finished = ok .& finishing
        let wf = zero.replacing(with: tOld, where: finished)
        R = R.addingProduct(wf, BR); G = G.addingProduct(wf, BG); B = B.addingProduct(wf, BB)
        T = T.replacing(with: zero, where: finished)
        livePixels &-= maskBits(finished).nonzeroBitCount
    }
}
