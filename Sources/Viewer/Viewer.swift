// Viewer — turns a head pose into a frame.
//
// Job: scenes (the parallax-cube room, mesh scenes, splat scenes), placing them behind the
// screen, the per-frame step (pose → off-axis camera → renderers → framebuffer), headless
// render, replay export and the benchmark runner.
// Layout: Frame/ (ViewingSetup: screen, viewport, neutral eye; EyeSource: where each frame's view
// comes from; FrameDriver: the one per-frame step used by the window, render, bench and export;
// RenderContext, FrameStats), Scenes/ (the Scene protocol, mesh and model scenes, loading,
// placement), Bench/ (runner, results, statistics, latency, allocation counting), Export/
// (replay export and its frame sinks), Library/ (the scene library: finding scene files,
// thumbnails rendered headless in the background and cached on disk, the grid's geometry).
// Contract: no SDL and no terminal I/O here; the executable owns windows and the command line.
import RenderCore
