// PoseRecorder — writes the raw and filtered pose of every frame to a CSV log.
import Foundation

/// Records one row per frame. Columns (header line, after `#` comments):
///
/// | column | meaning |
/// |---|---|
/// | `t` | frame time, seconds since the first recorded frame |
/// | `x,y,z` | raw eye: the newest sample after calibration and movement scaling, before the filter (metres, screen space); the output pose when there is no fresh sample |
/// | `confidence` | the source's confidence with a fresh sample (1 when it reports none), 0 without (so replaying the file reproduces the dropout) |
/// | `filtered_x,filtered_y,filtered_z` | the pose the renderer used (filtered, eased), metres |
/// | `state` | 0 tracking, 1 holding, 2 easingOut, 3 lost, 4 easingIn |
/// | `latency_ms` | frame time − sample publish time, milliseconds (−1 without a sample) |
/// | `yaw,pitch,roll` | with `eyes`: the head's angles, degrees (`HeadPoseModel` conventions; 0 when the source measures none) |
/// | `left_x,left_y,left_z,right_x,right_y,right_z` | with `eyes`: the raw eyes, metres (the raw eye ± half the source's eye span; ± half a 63 mm IPD along x without one) |
/// | `present_unix` | with `presentTimes` (the window): when the frame drawn for this pose was presented, CLOCK_REALTIME seconds to the microsecond |
/// | `exposure_unix` | with `presentTimes`: when the camera frame behind the pose was exposed (the sample's time), same clock; −1 without a sample |
///
/// With `presentTimes` a row is written when its frame is presented, not when its pose is read,
/// so a log aligns with other clocks and tools by the moment the viewer saw the frame.
///
/// The file is a valid log in our format (`t,x,y,z` + `confidence`; the other columns are
/// ignored on reading, except the angles and the eyes, which a replay carries), so
/// `--head replay:FILE` replays the raw track, in stereo from the logged eyes.
public final class PoseRecorder {
    /// Output path.
    public let path: String
    private let handle: FileHandle
    private var buffer = ""
    private var t0: Double?
    /// Rows written so far.
    public private(set) var rows = 0

    /// Whether rows carry the head's angles and both eyes.
    public let eyes: Bool
    /// Whether rows carry `present_unix` and `exposure_unix` (set before the first row: the
    /// header is written with it).
    public var presentTimes = false {
        didSet { precondition(rows == 0, "presentTimes is chosen before the first row") }
    }
    private var headerDone = false

    /// Creates (truncates) `path` and writes the header; `comment` lines go first as `# …`.
    /// `eyes`: add the angle and eye columns (for sources that measure them: the webcam).
    public init(path: String, comment: [String] = [], eyes: Bool = false) throws {
        self.eyes = eyes
        self.path = path
        guard FileManager.default.createFile(atPath: path, contents: nil),
              let h = FileHandle(forWritingAtPath: path) else {
            throw HeadTrackingError.writeFailed(file: path, reason: "cannot create file")
        }
        handle = h
        for c in comment { buffer += "# \(c)\n" }
    }

    private func writeHeader() {
        buffer += "t,x,y,z,confidence,filtered_x,filtered_y,filtered_z,state,latency_ms"
            + (eyes ? ",yaw,pitch,roll,left_x,left_y,left_z,right_x,right_y,right_z" : "")
            + (presentTimes ? ",present_unix,exposure_unix\n" : "\n")
        headerDone = true
    }

    deinit { try? close() }

    /// State codes used in the `state` column.
    public static func code(_ s: TrackingState) -> Int {
        switch s { case .tracking: 0; case .holding: 1; case .easingOut: 2; case .lost: 3; case .easingIn: 4 }
    }

    /// Appends the row for `pose`; `confidence` (0…1) replaces the 1/0 fresh-sample flag when
    /// the source measured one (the webcam tracker).
    /// `presented`: when its frame was presented (seconds on `MonotonicClock`), for `presentTimes`.
    public func record(_ pose: HeadPose, confidence: Double? = nil, presented: Double? = nil) throws {
        if !headerDone { writeHeader() }
        let t = pose.time - (t0 ?? pose.time)
        if t0 == nil { t0 = pose.time }
        let r = pose.rawPosition ?? pose.position
        let f = PoseLogWriter.fmt
        let lat = pose.latency.map { f(($0 * 1000 * 1000).rounded() / 1000) } ?? "-1"
        let c = pose.rawPosition == nil ? "0" : confidence.map { f(min(1, max(0, $0))) } ?? "1"
        buffer += "\(f(t)),\(f(r.x)),\(f(r.y)),\(f(r.z)),\(c),"
        buffer += "\(f(pose.position.x)),\(f(pose.position.y)),\(f(pose.position.z)),\(Self.code(pose.state)),\(lat)"
        if eyes {
            let a = (pose.rotation ?? .zero) * (180 / Double.pi)
            let half = (pose.eyeSpan ?? Vec3d(0.063, 0, 0)) / 2
            let right = r + half, left = r - half
            buffer += ",\(f(a.x)),\(f(a.y)),\(f(a.z)),\(f(left.x)),\(f(left.y)),\(f(left.z)),\(f(right.x)),\(f(right.y)),\(f(right.z))"
        }
        if presentTimes {
            // CLOCK_REALTIME = CLOCK_MONOTONIC + the offset between them now.
            var rt = timespec(), mt = timespec()
            clock_gettime(CLOCK_REALTIME, &rt); clock_gettime(CLOCK_MONOTONIC, &mt)
            let offset = (Double(rt.tv_sec) - Double(mt.tv_sec)) + (Double(rt.tv_nsec) - Double(mt.tv_nsec)) * 1e-9
            let present = (presented ?? pose.time) + offset
            buffer += String(format: ",%.6f,", present) + (pose.sampleTime.map { String(format: "%.6f", $0 + offset) } ?? "-1")
        }
        buffer += "\n"
        rows += 1
        if buffer.utf8.count > 1 << 16 { try flush() }
    }

    /// Writes buffered rows to the file.
    public func flush() throws {
        guard !buffer.isEmpty else { return }
        do { try handle.write(contentsOf: Data(buffer.utf8)) } catch {
            throw HeadTrackingError.writeFailed(file: path, reason: "\(error.localizedDescription)")
        }
        buffer = ""
    }

    /// Flushes and closes the file (idempotent).
    public func close() throws {
        try flush()
        try? handle.close()
    }
}
