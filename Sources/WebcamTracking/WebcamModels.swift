// WebcamModels — where the MediaPipe library, the BlazeFace models and the Face Landmarker are found.
import Foundation

/// The files the MediaPipe back end needs, fetched once by `Scripts/fetch-webcam-models.sh`
/// (from PyPI's `mediapipe` wheels, Apache-2.0) into a cache folder outside the clone:
/// `libmediapipe.so` (mediapipe 1.2.2, ~127 MB), `face_detection_short_range.tflite`
/// (229,714 B), `face_detection_full_range_sparse.tflite` (676,746 B, from 0.10.21) and
/// `face_landmarker.task` (3,758,596 B, pinned by SHA-256).
public struct WebcamModels: Sendable, Equatable {
    /// The folder holding them.
    public var directory: String

    public var library: String { directory + "/libmediapipe.so" }
    public var shortRangeModel: String { directory + "/face_detection_short_range.tflite" }
    public var fullRangeModel: String { directory + "/face_detection_full_range_sparse.tflite" }
    /// Google's Face Landmarker bundle (`face_landmarker/float16/1`, 3,758,596 B).
    public var landmarkerModel: String { directory + "/face_landmarker.task" }

    public init(directory: String) { self.directory = directory }

    /// The folder to use: `explicit` (a `--models` flag), else `$SPLATFRAME_WEBCAM_DIR`, else
    /// `${SPLATFRAME_CACHE_DIR:-${XDG_CACHE_HOME:-~/.cache}/splatframe}/webcam`.
    public static func locate(explicit: String? = nil,
                              environment: [String: String] = ProcessInfo.processInfo.environment) -> WebcamModels {
        if let explicit { return WebcamModels(directory: explicit) }
        if let d = environment["SPLATFRAME_WEBCAM_DIR"], !d.isEmpty { return WebcamModels(directory: d) }
        let cache: String
        if let c = environment["SPLATFRAME_CACHE_DIR"], !c.isEmpty { cache = c }
        else if let x = environment["XDG_CACHE_HOME"], !x.isEmpty { cache = x + "/splatframe" }
        else { cache = (environment["HOME"] ?? NSHomeDirectory()) + "/.cache/splatframe" }
        return WebcamModels(directory: cache + "/webcam")
    }

    /// The first missing file, if any (the short-range model and the library are required).
    public var missingFile: String? {
        [library, shortRangeModel].first { !FileManager.default.fileExists(atPath: $0) }
    }
    /// Whether the landmarker can be tried (library and bundle present).
    public var hasLandmarker: Bool { FileManager.default.fileExists(atPath: landmarkerModel) && FileManager.default.fileExists(atPath: library) }
    /// Whether the full-range model is there.
    public var hasFullRange: Bool { FileManager.default.fileExists(atPath: fullRangeModel) }
}
