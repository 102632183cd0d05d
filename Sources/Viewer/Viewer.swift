// Viewer — turns a head pose into a frame.
//
// Job: scenes (the parallax-cube room, mesh scenes, splat scenes), placing them behind the
// screen, the per-frame step (pose → off-axis camera → renderers → framebuffer), headless
// render, replay export and the benchmark runner.
// Contract: no SDL and no terminal I/O here; the executable owns windows and the command line.
import RenderCore
