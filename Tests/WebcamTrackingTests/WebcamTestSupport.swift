// Shared set-up for the webcam tests: the real detector (MediaPipe when its files are fetched).
import Foundation
import Testing
import TestSupport
@testable import WebcamTracking

enum WebcamTestSupport {
    static let models = WebcamModels.locate()
    static var mediapipeAvailable: Bool { models.missingFile == nil }
    static let mediapipeSkip: Comment = "skipped: MediaPipe files are not fetched (run Scripts/fetch-webcam-models.sh)"

    /// The best detector here (MediaPipe, else Haar) and a pipeline with the default model.
    static func pipeline(_ backend: DetectorBackend? = nil) throws -> EyePipeline {
        let detector = try backend.map { try FaceDetector(backend: $0, models: models) }
            ?? FaceDetector.best(models: models) { print("notice: \($0)") }
        return EyePipeline(detector: detector, model: PinholeEyeModel())
    }

    static func standardDeviation(_ v: [Double]) -> Double {
        guard v.count > 1 else { return 0 }
        let m = v.reduce(0, +) / Double(v.count)
        return (v.map { ($0 - m) * ($0 - m) }.reduce(0, +) / Double(v.count - 1)).squareRoot()
    }
}
