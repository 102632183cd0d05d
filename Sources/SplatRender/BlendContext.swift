// BlendContext — what stage 4's kernels read and write, as raw pointers opened once per frame.
// Compiled into SplatRender and, as the same file, into SplatRenderAVX512 (whose block kernel
// takes these pointers across the module boundary as plain values).
import CSIMD
import RenderCore

/// A pair in a tile list: depth key (IEEE bits of a positive Float) in the low 32 bits,
/// the splat's slot in `projected` in the high 32.
typealias TilePair = UInt64

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

extension BlendContext {
    /// Pairs and records asked for ahead of a tile (a tile's first pairs: later ones are
    /// prefetched by the kernels as they go).
    static let tilePrefetchPairs = 64

    /// Asks for the lines of tile `t`'s first `tilePrefetchPairs` pairs.
    @inline(__always) func prefetchPairs(_ t: Int) {
        let b = Int(start[t]), n = min(Int(start[t &+ 1]) &- b, Self.tilePrefetchPairs)
        var i = 0
        while i < n { csimd_prefetch(pairs + (b &+ i)); i &+= 8 }
    }

    /// Asks for the records named by tile `t`'s first `tilePrefetchPairs` pairs.
    @inline(__always) func prefetchRecords(_ t: Int) {
        let b = Int(start[t]), e = min(Int(start[t &+ 1]), b &+ Self.tilePrefetchPairs)
        for p in b..<max(b, e) { prefetchRecord(records + Int(pairs[p] &>> 32)) }
    }
}

/// Prefetches both cache lines a 48-byte record may span.
@inline(__always)
func prefetchRecord(_ r: UnsafeMutablePointer<ProjectedSplat>) {
    csimd_prefetch(r)
    csimd_prefetch(UnsafeRawPointer(r) + (MemoryLayout<ProjectedSplat>.stride - 1))
}
