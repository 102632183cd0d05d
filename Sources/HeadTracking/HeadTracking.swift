// HeadTracking — where the viewer's eye is.
//
// Job: head poses from sources (mouse, fixed, replayed logs, opentrack UDP; webcam later),
// filtered (EMA, One Euro), calibrated into screen space (metres, origin at the screen
// centre, x right, y up, +z toward the viewer).
// Contract: sources run off the render thread and publish their newest sample through a
// `Locked` (Workers); reading the pose never blocks the frame loop.
//
// Data flow (one frame):  PoseSource.latest() → HeadTracker.update(sample:at:)
//   → calibration (axis remap + offset) → movement scale / per-axis strength
//   → filter (EMA | One Euro | none) → optional prediction (LaViola DESP)
//   → lost-tracking hold/ease → HeadPose (HeadPose.eye feeds OffAxisFrustum).
// Layout: Sources/ (the PoseSource protocol and each source, source specs, opentrack
// mapping), Filters/ (EMA, One Euro, prediction), Logs/ (reading, writing, recording, analysis),
// Settings/ (flags, tracker settings, the resolver over Settings' config file), Session/ (the
// per-frame tracker, the session that wires source + tracker + recorder, poses, clocks).
// The physical screen is not a tracking concept: Viewer's ViewingSetup resolves it and passes
// a `TrackingGeometry` in.
// Time: every timestamp is in seconds on one clock per run: `MonotonicClock.now()` for
// live sources, the frame time for deterministic replay (bench, export, tests).
import RenderCore
