// Procedural — scenes made from code, not files.
//
// Job: generated meshes (spheres, boxes, the parallax-cube room's walls and targets),
// generated textures (labelled grids) and generated splat scenes.
// Contract: deterministic for a given seed; pure functions into RenderCore types.
import RenderCore
