// Viewer — turns a head pose into a frame.
//
// Job: scenes (the parallax-cube room, mesh scenes, splat scenes, streamed level of detail),
// what a scene name means and loading it, placing models behind the screen, and the per-frame
// step (pose → off-axis camera → renderers → framebuffer) that the window, render, bench,
// export and the library's thumbnails share.
// Layout: Frame/ (ViewingSetup: screen, viewport, neutral eye; EyeSource: where each frame's view
// comes from; FrameDriver: the one per-frame step; RenderContext, FrameStats, LatencyMeter,
// stereo, camera files, window placement), Scenes/ (the Scene protocol, SceneSource, mesh,
// model and streamed-SOG scenes, PlacedModel, loading, placement), Sequences/ (animated captures:
// frames found in a folder, ZIP or sequence JSON, the play head, decode-ahead, the scene).
// Contract: no SDL, no terminal I/O and no command-line flags here; the executable owns windows
// and the command line. Bench, Export and Library build on this module.
import RenderCore
