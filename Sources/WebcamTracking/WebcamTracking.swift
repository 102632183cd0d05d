// WebcamTracking — the viewer's eyes from a live camera or a video file.
//
// Job: camera frames (V4L2 through OpenCV, or a video/still file at its own frame rate) →
// faces with both eye centres (MediaPipe BlazeFace through its C API, else OpenCV's Haar
// cascades) → the tracked face (near the last one first, else the largest) → eye points in
// screen space through a pinhole model (distance from the inter-pupillary distance) → a
// `PoseSource` for HeadTracking, with confidence, both eyes and head roll.
// Contract: capture and processing run on their own threads; the newest frame wins and stale
// ones are dropped; every frame is stamped at capture; the frame loop only reads the newest
// sample. A missing camera, a vanished camera, an unreadable video or a missing model gives a
// one-line error or a notice and a fall-back — never a frozen window.
// Layout: PinholeEyeModel (pixels → metres), FaceTracker (which face, where to search next),
// the C shim (Sources/CWebcam: capture, detectors) behind small final classes.
