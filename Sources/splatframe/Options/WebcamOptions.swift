// WebcamOptions — where the webcam tracker's frames come from and how faces are found, for
// `track webcam` and `track calibrate`.
import Media
import ArgumentParser
import WebcamTracking

/// `--device`, `--video`, `--detector`, `--models`.
struct WebcamInputOptions: ParsableArguments {
    @Option(help: "Camera index, /dev/videoN, or a network camera's URL (MJPEG over HTTP, RTSP…) (default 0).",
            transform: CaptureDevice.parse)
    var device: CaptureDevice?
    @Option(name: .customLong("stream-timeout"), help: "Seconds a network camera may take to open and to send each frame, 0.5…60 (default 3).",
            transform: Checked.number(in: 0.5...60, "s"))
    var streamTimeout: Double?
    @Option(help: "A video file (or still image) instead of a camera.") var video: String?
    @Option(help: "Face back end: landmarker (head pose), blazeface (or mediapipe) or haar (default: the first that works, in that order).",
            transform: DetectorBackend.parse)
    var detector: DetectorBackend?
    @Option(help: "Folder with libmediapipe.so, the BlazeFace models and face_landmarker.task (default: the cache Scripts/fetch-webcam-models.sh fills).")
    var models: String?

    /// The frames' source: the video file, else the camera (index 0 unless --device names one).
    var capture: CaptureSource {
        if let video { return .file(video) }
        if case .stream(let url, _)? = device?.source { return .stream(url: url, timeout: streamTimeout ?? CaptureSource.defaultStreamTimeout) }
        return device?.source ?? .device(0)
    }
}

extension DetectorBackend {
    /// `--detector NAME`.
    static func parse(_ text: String) throws -> DetectorBackend {
        guard let b = DetectorBackend(name: text) else { throw ArgumentRule("expected landmarker, blazeface (or mediapipe) or haar") }
        return b
    }
}

/// `--device N` or `/dev/videoN`.
struct CaptureDevice: ArgumentValue {
    var source: CaptureSource

    static func parse(_ text: String) throws -> CaptureDevice {
        guard !text.isEmpty, let s = try? CaptureSource.device(parsing: text) else {
            throw ArgumentRule("expected a camera index 0…999, /dev/videoN or a camera URL (http://, rtsp://…)")
        }
        return CaptureDevice(source: s)
    }
}
