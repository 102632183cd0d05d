// FaceDetector — MediaPipe BlazeFace (eyes and four more keypoints) or OpenCV Haar cascades: the
// fall-backs when the Face Landmarker cannot run.
import Media
import CWebcam
import Foundation
import Workers

/// A face detector. Detections take turns behind a lock (the processing thread alone uses it).
public final class FaceDetector: Sendable {
    /// The native detector and its output buffer: used only under the lock.
    private struct Native {
        let handle: OpaquePointer
        var faces = [sfw_face](repeating: sfw_face(), count: 8)
    }
    private let native: Locked<Native>
    /// The back end in use.
    public let backend: DetectorBackend
    /// Whether full-range detection (far faces) is available.
    public let hasFullRange: Bool

    /// Creates a `backend` detector. MediaPipe needs `models` (library + short-range model;
    /// the full-range one is optional). Throws `WebcamError.detector` naming what is missing.
    public init(backend: DetectorBackend, models: WebcamModels) throws {
        var cfg = sfw_detector_config()
        sfw_detector_config_init(&cfg)
        self.backend = backend
        var full = false
        let result: (OpaquePointer?, String)
        switch backend {
        case .landmarker:
            throw WebcamError.detector("the landmarker is not a box detector (use FaceLandmarker)")
        case .blazeface:
            if let missing = models.missingFile {
                throw WebcamError.detector("\(missing): missing (run Scripts/fetch-webcam-models.sh, or `make run` does it)")
            }
            full = models.hasFullRange
            cfg.backend = SFW_BACKEND_MEDIAPIPE
            result = models.library.withCString { lib in
                models.shortRangeModel.withCString { short in
                    models.fullRangeModel.withCString { fullPath in
                        cfg.mediapipe_library = lib
                        cfg.short_range_model = short
                        cfg.full_range_model = full ? fullPath : nil
                        return withNativeErrorBuffer { sfw_detector_create(&cfg, $0, $1) }
                    }
                }
            }
        case .haar:
            cfg.backend = SFW_BACKEND_HAAR
            result = withNativeErrorBuffer { sfw_detector_create(&cfg, $0, $1) }
        }
        guard let h = result.0 else { throw WebcamError.detector(result.1.isEmpty ? "\(backend.rawValue) detector unavailable" : result.1) }
        hasFullRange = full
        native = Locked(Native(handle: h))
    }

    deinit { native.withLock { sfw_detector_destroy($0.handle) } }

    /// Faces in `frame`, best first; only inside `roi` (x, y, w, h pixels) when given;
    /// `fullRange` uses MediaPipe's far-face model. Throws `WebcamError.detection`.
    public func detect(_ frame: RGBFrame, roi: (x: Double, y: Double, w: Double, h: Double)? = nil,
                       fullRange: Bool = false) throws -> [DetectedFace] {
        guard frame.width > 0, frame.height > 0, frame.pixels.count >= frame.width * frame.height * 3 else { return [] }
        return try native.withLock { try detect(&$0, frame, roi: roi, fullRange: fullRange) }
    }

    private func detect(_ native: inout Native, _ frame: RGBFrame, roi: (x: Double, y: Double, w: Double, h: Double)?,
                        fullRange: Bool) throws -> [DetectedFace] {
        let handle = native.handle
        var rect = sfw_rect(x: Float(roi?.x ?? 0), y: Float(roi?.y ?? 0), w: Float(roi?.w ?? 0), h: Float(roi?.h ?? 0))
        let capacity = Int32(native.faces.count)
        let (n, message) = withNativeErrorBuffer { err, len -> Int32 in
            frame.pixels.withUnsafeBufferPointer { px in
                native.faces.withUnsafeMutableBufferPointer { out in
                    withUnsafePointer(to: &rect) { r in
                        sfw_detector_detect(handle, px.baseAddress, Int32(frame.width), Int32(frame.height), 0,
                                            Int64(frame.timestamp * 1000), roi == nil ? nil : r, fullRange && hasFullRange ? 1 : 0,
                                            out.baseAddress, capacity, err, len)
                    }
                }
            }
        }
        guard n >= 0 else { throw WebcamError.detection(message) }
        return (0..<Int(n)).map { i in
            let f = native.faces[i]
            let kp = withUnsafeBytes(of: f.keypoints) { raw -> [SIMD2<Double>] in
                let p = raw.bindMemory(to: Float.self)
                return (0..<Int(min(6, max(0, f.keypoint_count)))).map { SIMD2(Double(p[2 * $0]), Double(p[2 * $0 + 1])) }
            }
            let eyes: (right: SIMD2<Double>, left: SIMD2<Double>)? = f.has_eyes != 0
                ? (SIMD2(Double(f.right_eye_x), Double(f.right_eye_y)), SIMD2(Double(f.left_eye_x), Double(f.left_eye_y))) : nil
            return DetectedFace(x: Double(f.x), y: Double(f.y), width: Double(f.w), height: Double(f.h), score: Double(f.score),
                                eyes: eyes, keypoints: kp)
        }
    }
}
