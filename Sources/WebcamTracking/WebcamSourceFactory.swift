// WebcamSourceFactory — `--head webcam[:DEVICE]` / `--head video:FILE` → a running tracker.
import Media
import Foundation
import HeadTracking
import RenderCore
import Settings

/// Builds webcam sources from the head spec, the resolved tracking settings and the config
/// file's camera and viewer constants.
public enum WebcamSourceFactory {
    /// The pinhole model the config implies: `cameraFocalPx` (at 640 px) wins over
    /// `cameraFovDeg` (default 60°); `ipdMM` (default 63); the camera position from the
    /// tracking settings (config `cameraPositionMM`, default centred 2 cm above the screen's top edge).
    public static func model(config: ConfigFile?, settings: EffectiveTrackingSettings) -> PinholeEyeModel {
        let ipd = (config?.ipdMM ?? 63) / 1000
        let position = settings.cameraPosition.value
        if let f = config?.cameraFocalPx { return PinholeEyeModel(focalPixels: f, imageWidth: 640, ipd: ipd, cameraPosition: position) }
        return PinholeEyeModel(horizontalFOVDegrees: config?.cameraFovDeg ?? 60, imageWidth: 640, ipd: ipd, cameraPosition: position)
    }

    /// The capture a spec names; a network camera's waits are bounded by `streamTimeout` seconds.
    public static func captureSource(_ spec: HeadSourceSpec, streamTimeout: Double = CaptureSource.defaultStreamTimeout) throws -> CaptureSource {
        switch spec {
        case .webcam(let d): return try CaptureSource.device(parsing: d, timeout: streamTimeout)
        case .video(let p): return .file(p)
        default: throw WebcamError.capture("\(spec) is not a camera source")
        }
    }

    /// The frame → eye-point pipeline, assembled in this one place for the window, `track webcam`
    /// and `track calibrate`: the best back end (the landmarker, else BlazeFace, else Haar —
    /// `notice` hears about each fall-back, once) and the camera model the config implies.
    public static func pipeline(config: ConfigFile?, settings: EffectiveTrackingSettings, models: WebcamModels = .locate(),
                                prefer: DetectorBackend? = nil, notice: (String) -> Void) throws -> EyePipeline {
        try EyePipeline.best(models: models, model: model(config: config, settings: settings), prefer: prefer, notice: notice)
    }

    /// A maker for `HeadTrackingSession(camera:)`: opens the capture, assembles the pipeline and
    /// returns the source, not yet started.
    public static func maker(config: ConfigFile?, models: WebcamModels = .locate(), prefer: DetectorBackend? = nil,
                             notice: @escaping (String) -> Void) -> CameraSourceMaker {
        { spec, settings in
            let capture = try VideoCapture(try captureSource(spec, streamTimeout: config?.streamTimeoutS ?? CaptureSource.defaultStreamTimeout),
                                           exposureDelay: config?.cameraDelayMs.map { $0 / 1000 })
            return WebcamSource(capture: capture, pipeline: try pipeline(config: config, settings: settings, models: models,
                                                                         prefer: prefer, notice: notice))
        }
    }

    /// The first camera device node present (`/dev/video0` … `/dev/video9`), if any.
    public static func firstDevice() -> Int? {
        (0..<10).first { FileManager.default.fileExists(atPath: "/dev/video\($0)") }
    }
}
