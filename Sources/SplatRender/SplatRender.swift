// SplatRender — the CPU Gaussian-splat renderer.
//
// Job: render a `SplatCloud` for a `Camera` with the 3DGS reference semantics (EWA
// projection, SH colour, 16×16 tiles, depth-sorted front-to-back blending). `prepare`
// stores the splats in spatial (Morton) order, so that a tile's records lie together.
// Contract: knows nothing of files or windows; output matches the slow reference renderer
// in TestSupport within the image contract (PSNR ≥ 50 dB, max channel error ≤ 2); the
// bytes are identical for any thread count.
//
// Public API (for the viewer):
//   let splats = SplatRenderer.prepare(cloud)          // PreparedSplats, once per scene
//   let renderer = SplatRenderer(threads: 2)            // owns its worker threads + scratch
//   renderer.antialias = false                          // optional Mip-Splatting compensation
//   renderer.writesDepth = true                         // false: skip the depth output (~8 % faster)
//   let t = renderer.render(splats, camera: cam, into: framebuffer, depthTest: false)
//   // t: SplatStageTimes (preprocess / bin / sort / blend ms, visible splats, pairs)
// With `depthTest: true` the framebuffer's existing colour and depth (e.g. the cube room
// drawn first) are kept: splats behind it are ignored and composited over its colour.
//
// Steady state allocates nothing (buffers grow once; the worker pool runs capture-free
// stage functions). Measure with `splatframe bench generate:N` (or any splat file).
//
// Files: SplatRenderer (orchestration, StageWork) and one extension per stage (+Preprocess,
// +Binning, +Sort, +Blend); SplatTunables (every constant); PreparedSplats (compact SoA copy);
// ProjectedSplat (per-frame record); FrameSetup (camera constants); FastExp and LaneMask
// (SIMD helpers); SplatStageTimes (the SH basis is RenderCore's SphericalHarmonics). Buffers: RenderCore.ScratchBuffer. Threads: Workers.WorkerPool.
import RenderCore
