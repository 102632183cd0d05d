// WebcamCalibrationControl — `k`: sit centred 0.6 m from the camera for three seconds; the fitted
// IPD (or focal length) is applied by the camera source and saved to the config file, if there is
// one. Its state: where to save.
import Foundation
import HeadTracking
import Settings

/// The webcam calibration's start and outcome. Frame loop only.
struct WebcamCalibrationControl {
    /// Where the fitted value is saved (nil: applied, not saved).
    let configPath: String?

    /// Starts a calibration; returns the message to show (why not, or what to do).
    func start(_ tracking: HeadTrackingSession) -> (message: String, seconds: Double, started: Bool) {
        guard let camera = tracking.source as? CameraTrackingSource else {
            return ("CALIBRATION NEEDS A WEBCAM HEAD SOURCE", 2.5, false)
        }
        camera.beginCalibration(distance: 0.6, seconds: 3)
        return ("CALIBRATING: SIT CENTRED, EYES 0.60 M FROM THE CAMERA, FOR 3 S", 3.5, true)
    }

    /// A finished calibration's message (saved to the config when there is one), once; nil while
    /// none has finished.
    func poll(_ tracking: HeadTrackingSession) -> String? {
        guard let camera = tracking.source as? CameraTrackingSource, let result = camera.takeCalibrationResult() else { return nil }
        switch result {
        case .success(let r):
            var saved = ""
            if let configPath {
                do { try ConfigFile.update(path: configPath, [r.key: r.value]); saved = " SAVED TO \(configPath)" } catch { saved = " NOT SAVED: \(error)" }
            }
            return "CALIBRATED: \(r.summary)\(saved)".uppercased()
        case .failure(let e):
            return "CALIBRATION FAILED: \(e)".uppercased()
        }
    }
}
