// SplatStageTimes — wall-clock time of each stage of one `SplatRenderer.render` call.

/// Milliseconds spent in each stage of one frame (wall clock, all threads together).
public struct SplatStageTimes: Sendable, Equatable, CustomStringConvertible {
    /// Cull, 3D→2D covariance, SH colour, conic, radius and pixel rectangle of every splat.
    public var preprocess: Double = 0
    /// Depth sort of every tile's list (stable radix on the float bits of depth, tiles in
    /// parallel; runs after `bin`).
    public var sort: Double = 0
    /// Tile counting, tile ranges and the (depth, slot) pair of each splat in every tile it
    /// touches.
    public var bin: Double = 0
    /// Per-tile front-to-back blending and write-out.
    public var blend: Double = 0
    /// Number of splats that survived culling.
    public var visibleSplats: Int = 0
    /// Number of (tile, splat) pairs.
    public var tileSplatPairs: Int = 0
    /// Visible splats left out because the frame exceeded `SplatRenderer.maxTileSplatPairs`
    /// (0 normally; the farthest are dropped first).
    public var droppedSplats: Int = 0
    /// Whether binning wrote the tile lists from the splats' kept depth order (`sort` then only
    /// repaired the tiles found out of order; it includes making the order on the frame that did).
    public var presorted = false
    /// Whether the frame was abandoned (`SplatRenderer.abandonCheck`): the target is partly drawn.
    public var abandoned = false

    public init() {}

    /// Sum of the stage times.
    public var total: Double { preprocess + sort + bin + blend }

    public var description: String {
        func f(_ x: Double) -> String { String(Int((x * 100).rounded())).paddedMs }
        return "preprocess \(f(preprocess)) sort \(f(sort)) bin \(f(bin)) blend \(f(blend)) total \(f(total)) ms"
            + " (visible \(visibleSplats), pairs \(tileSplatPairs)\(droppedSplats > 0 ? ", dropped \(droppedSplats)" : ""))"
    }
}

extension String {
    /// "1234" (hundredths) → "12.34".
    fileprivate var paddedMs: String {
        let s = count < 3 ? String(repeating: "0", count: 3 - count) + self : self
        return s.dropLast(2) + "." + s.suffix(2)
    }
}
