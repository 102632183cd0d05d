// SplatRenderAVX512 — the splat blender's block kernel compiled for AVX-512, for the renderer
// to call when the CPU it runs on has AVX-512 (`CPUDispatch` in SplatRender decides).
//
// The portable release build targets any AVX2 + FMA CPU (x86-64-v3); this module alone is
// compiled for `skylake-avx512` (AVX-512 F, CD, VL, BW, DQ: Intel since Skylake-SP, AMD since
// Zen 4). Its kernel sources are SplatRender's own files, compiled a second time (Shared/ holds
// links to them), so there is one kernel to read and test, in two instruction sets. Nothing
// here may run before the dispatch has checked the CPU: the one entry point, `blendTile`, is
// never inlined into its callers, and `Scripts/check-dispatch.sh` checks the release binary
// for AVX-512 instructions outside this module.
import CSIMD
import RenderCore

/// The AVX-512 compile of the block blend kernel.
public enum AVX512BlockKernel {
    /// Whether this module was compiled with AVX-512 (the default build: yes; a build with
    /// `SPLATFRAME_TARGET_CPU` set: as that CPU has it).
    public static let compiledForAVX512 = CSIMD_HAS_AVX512 != 0

    /// Blends tile `t` (row-major tile index) with the block kernel: `records` holds the
    /// frame's 48-byte projected splats, `pairs` the tiles' sorted (depth, slot) pairs with
    /// tile t's at `start[t]..<start[t + 1]`; the tile's pixels of `color` (RGBA8) and `depth`
    /// (metres, camera −Z) — row-major, `width` × `height` — are written (depth only with
    /// `writeDepth`; with `depthTest` both are read first). `scratch` is one worker's
    /// `BlockBlendScratch.bytes`, 64-byte aligned. Call only where `CPUDispatch` allows AVX-512.
    @inline(never)
    public static func blendTile(_ t: Int, _ records: UnsafeRawPointer, _ pairs: UnsafeMutablePointer<UInt64>,
                                 _ start: UnsafeMutablePointer<Int32>, _ color: UnsafeMutablePointer<UInt32>,
                                 _ depth: UnsafeMutablePointer<Float>, width: Int, height: Int, tilesX: Int,
                                 background: Vec3, scratch: UnsafeMutableRawPointer, depthTest: Bool, writeDepth: Bool) {
        let c = BlendContext(records: UnsafeMutableRawPointer(mutating: records).assumingMemoryBound(to: ProjectedSplat.self),
                             pairs: pairs, start: start, color: color, depth: depth,
                             width: width, height: height, tilesX: tilesX, background: background)
        switch (depthTest, writeDepth) {
        case (false, true): BlockBlendKernel.blendTile(t, c, scratch, depthTest: false, writeDepth: true)
        case (false, false): BlockBlendKernel.blendTile(t, c, scratch, depthTest: false, writeDepth: false)
        case (true, true): BlockBlendKernel.blendTile(t, c, scratch, depthTest: true, writeDepth: true)
        case (true, false): BlockBlendKernel.blendTile(t, c, scratch, depthTest: true, writeDepth: false)
        }
    }
}
