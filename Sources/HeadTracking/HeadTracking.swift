// HeadTracking — where the viewer's eye is.
//
// Job: head poses from sources (mouse, fixed, replayed logs, opentrack UDP; webcam later),
// filtered (EMA, One Euro), calibrated into screen space (metres, origin at the screen
// centre, x right, y up, +z toward the viewer).
// Contract: sources run off the render thread and publish their newest sample through a
// `Mutex`; reading the pose never blocks the frame loop.
import RenderCore
