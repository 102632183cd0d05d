// PreparedSplats+DepthOrder — the depth order a prepared cloud keeps for the renderers that draw
// it (`SplatDepthOrder`): made when a view rotation has been asked for twice in a row, and kept
// until the rotation, the model's placement or (for an assembly) the contents change.

/// What a `PreparedSplats` remembers of depth orders (under its lock).
struct DepthOrderState: Sendable {
    /// The order kept, if any.
    var order: SplatDepthOrder?
    /// The view row and generation last asked for without a fitting order.
    var pendingRow: SIMD3<Float>?
    var pendingGeneration = 0
}

extension PreparedSplats {
    /// The depth order for a camera whose view matrix has third row `row`: the kept one if it
    /// fits; else nil, and the first time a row (with these contents) is asked for twice in a
    /// row the order is made on the calling thread (O(n), ~10 ms per million splats) and kept.
    /// A camera that rotates every frame therefore never pays for one. Thread-safe.
    func depthOrder(forRow row: SIMD3<Float>) -> SplatDepthOrder? {
        guard keepsDepthOrder else { return nil }
        let generation = self.generation
        let (kept, build) = depthOrderState.withLock { s -> (SplatDepthOrder?, Bool) in
            if let o = s.order, o.fits(row: row, generation: generation) { return (o, false) }
            if s.pendingRow == row && s.pendingGeneration == generation { s.pendingRow = nil; return (nil, true) }
            s.pendingRow = row; s.pendingGeneration = generation
            return (nil, false)
        }
        if let kept { return kept }
        guard build else { return nil }
        let order = SplatDepthOrder(self, row: row)
        depthOrderState.withLock { $0.order = order }
        return order
    }

    /// Forgets the kept depth order (its memory, 4 bytes a splat, is freed once no frame uses it).
    public func dropDepthOrder() {
        depthOrderState.withLock { $0 = DepthOrderState() }
    }
}
