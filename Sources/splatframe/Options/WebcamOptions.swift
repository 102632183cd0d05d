// WebcamOptions — where the webcam tracker's frames come from and how faces are found, for
// `track webcam` and `track calibrate`; `--detector` and `--models` are declared here once for
// every command that takes them.
import Media
import ArgumentParser
import WebcamTracking

/// `--detector NAME`: the webcam tracker's face back end (the window, `track webcam`,
/// `track calibrate`, `track accuracy`).
struct DetectorOption: ParsableArguments {
    @Option(help: "Webcam face back end: landmarker (head pose), blazeface (mediapipe is its old name) or haar (default: the first that works, in that order).")
    var detector: DetectorBackend?
}

/// `--models DIR`: where the MediaPipe library and models are.
struct WebcamModelsOption: ParsableArguments {
    @Option(help: ArgumentHelp("Folder with libmediapipe.so, the BlazeFace models and face_landmarker.task (default: the cache Scripts/fetch-webcam-models.sh fills).",
                               valueName: "dir"))
    var models: String?
}

/// `--device`, `--video`, `--detector`, `--models`.
struct WebcamInputOptions: ParsableArguments {
    @Option(help: "Camera index, /dev/videoN, or a network camera's URL (MJPEG over HTTP, RTSP…) (default 0).")
    var device: CaptureDevice?
    @Option(name: .customLong("stream-timeout"), parsing: .unconditional,
            help: "Seconds a network camera may take to open and to send each frame, 0.5…60 (default 3).",
            transform: Checked.number(in: 0.5...60, "s"))
    var streamTimeout: Double?
    @Option(help: "A video file (or still image) instead of a camera.") var video: String?
    @OptionGroup var detectorOption: DetectorOption
    @OptionGroup var modelsOption: WebcamModelsOption

    var detector: DetectorBackend? { detectorOption.detector }
    var models: String? { modelsOption.models }

    /// The frames' source: the video file, else the camera (index 0 unless --device names one).
    var capture: CaptureSource {
        if let video { return .file(video) }
        if case .stream(let url, _)? = device?.source { return .stream(url: url, timeout: streamTimeout ?? CaptureSource.defaultStreamTimeout) }
        return device?.source ?? .device(0)
    }
}

/// `--device N` or `/dev/videoN`.
struct CaptureDevice: ArgumentGrammar {
    var source: CaptureSource

    static func parse(_ text: String) throws -> CaptureDevice {
        guard !text.isEmpty, let s = try? CaptureSource.device(parsing: text) else {
            throw ArgumentRule("expected a camera index 0…999, /dev/videoN or a camera URL (http://, rtsp://…)")
        }
        return CaptureDevice(source: s)
    }
}
