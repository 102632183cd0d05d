// DetectorBackend — the ways the webcam finds a face, best first.

/// The webcam's face back ends, best first. The fall-back chain tries them in this order.
public enum DetectorBackend: String, Sendable, CaseIterable {
    /// MediaPipe's Face Landmarker (`face_landmarker.task`): 478 landmarks and the head's 6-DoF
    /// pose, so a turned head keeps its distance and each eye is placed by the head's rotation.
    case landmarker
    /// MediaPipe BlazeFace through `libmediapipe.so`'s C API: ~2 ms a frame, six keypoints;
    /// distance from the eyes' spacing (a turned head reads as farther).
    case blazeface
    /// OpenCV Haar face + eye cascades (Debian opencv-data): ~20 ms, eyes when visible.
    case haar

    /// Parses a back end's name; `mediapipe` (its name before the landmarker) means BlazeFace.
    public init?(name: String) {
        let n = name.lowercased()
        if n == "mediapipe" { self = .blazeface; return }
        self.init(rawValue: n)
    }
}
