// SplatRender — the CPU Gaussian-splat renderer.
//
// Job: render a `SplatCloud` for a `Camera` with the 3DGS reference semantics (EWA
// projection, SH colour, 16×16 tiles, depth-sorted front-to-back blending).
// Contract: knows nothing of files or windows; output matches the slow reference renderer
// in TestSupport within the image contract; identical for any thread count.
import RenderCore
