// LatencyPerFrameFile — the rig's presented frames as CSV (`--per-frame`): when each began and was
// presented, the exposure and publication of the sample behind it, the eye it used and the true eye.
import Foundation
import HeadTracking

/// Writes `frame_start,present,exposure,published,eye_x,eye_y,eye_z,true_x,true_y,true_z` rows
/// (seconds since the motion started; metres in screen space; empty where a frame had no sample).
public enum LatencyPerFrameFile {
    /// The CSV text of `frames` scored against `motion`.
    public static func text(_ frames: [PresentedFrame], motion: LatencyMotion) -> String {
        var csv = "frame_start,present,exposure,published,eye_x,eye_y,eye_z,true_x,true_y,true_z\n"
        for f in frames {
            let t = motion.eye(at: f.present)
            csv += String(format: "%.6f,%.6f,%@,%@,%.6f,%.6f,%.6f,%.6f,%.6f,%.6f\n", f.frameStart, f.present,
                          f.exposure.map { String(format: "%.6f", $0) } ?? "", f.published.map { String(format: "%.6f", $0) } ?? "",
                          f.eye.x, f.eye.y, f.eye.z, t.x, t.y, t.z)
        }
        return csv
    }

    /// Writes `frames` to `path`.
    public static func write(_ frames: [PresentedFrame], motion: LatencyMotion, to path: String) throws {
        do { try text(frames, motion: motion).write(toFile: path, atomically: true, encoding: .utf8) } catch {
            throw HeadTrackingError.writeFailed(file: path, reason: error.localizedDescription)
        }
    }
}
