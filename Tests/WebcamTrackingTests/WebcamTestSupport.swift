// Shared set-up for the webcam tests: the real detector (MediaPipe when its files are fetched).
import Foundation
import Media
import Testing
import TestSupport
@testable import WebcamTracking

enum WebcamTestSupport {
    static let models = WebcamModels.locate()
    static var mediapipeAvailable: Bool { models.missingFile == nil }
    static let mediapipeSkip: Comment = "skipped: MediaPipe files are not fetched (run Scripts/fetch-webcam-models.sh)"
    static var landmarkerAvailable: Bool { models.hasLandmarker }
    static let landmarkerSkip: Comment = "skipped: face_landmarker.task is not fetched (run Scripts/fetch-webcam-models.sh)"

    /// A pipeline with the default camera model over `backend` (nil: the best here — the
    /// landmarker, else BlazeFace, else Haar).
    static func pipeline(_ backend: DetectorBackend? = nil, model: PinholeEyeModel = PinholeEyeModel()) throws -> EyePipeline {
        try EyePipeline.best(models: models, model: model, prefer: backend) { print("notice: \($0)") }
    }

    /// Every face a pipeline's back end sees in `frame` (boxes with eyes).
    static func faces(_ pipeline: EyePipeline, _ frame: RGBFrame) throws -> [DetectedFace] {
        switch pipeline.finder {
        case .detector(let d): return try d.detect(frame)
        case .landmarker(let l, _): return try l.detect(frame).map(\.face)
        }
    }

    static func standardDeviation(_ v: [Double]) -> Double {
        guard v.count > 1 else { return 0 }
        let m = v.reduce(0, +) / Double(v.count)
        return (v.map { ($0 - m) * ($0 - m) }.reduce(0, +) / Double(v.count - 1)).squareRoot()
    }
}
