// TriangleRaster — the CPU triangle rasterizer.
//
// Job: draw `TriangleMesh`es into a `Framebuffer` for a `Camera`: homogeneous near-plane
// clipping, tile binning, fixed-point edge functions with the top-left rule, depth test,
// perspective-correct attributes, bilinear/mipmapped texturing, Lambert + ambient shading,
// optional back-face culling, on a fixed pool of worker threads.
// Contract: knows nothing of files or windows; no allocation per frame in steady state.
import RenderCore
