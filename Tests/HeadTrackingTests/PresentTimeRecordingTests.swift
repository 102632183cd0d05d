// `--record` in the window: a row per presented frame, with the present time and the exposure of
// the sample behind it on the wall clock, so a log aligns with other clocks and tools.
import Foundation
import HeadTracking
import RenderCore
import Testing

@Suite("Recording at present time")
struct PresentTimeRecordingTests {
    @Test func rowsCarryPresentAndExposureUnixTimes() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("present-\(getpid()).csv").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let recorder = try PoseRecorder(path: path)
        recorder.presentTimes = true
        let now = MonotonicClock.now()
        var pose = HeadPose(time: now - 0.03, position: Vec3d(0.01, 0, 0.6), state: .tracking, rawPosition: Vec3d(0.01, 0, 0.6))
        pose.sampleTime = now - 0.08
        try recorder.record(pose, presented: now)
        let lost = HeadPose(time: now, position: Vec3d(0, 0, 0.6), state: .lost)
        try recorder.record(lost, presented: now + 0.02)
        try recorder.close()
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(lines[0].hasSuffix(",present_unix,exposure_unix"))
        let first = lines[1].split(separator: ",").map(String.init)
        let present = Double(first[first.count - 2])!, exposure = Double(first[first.count - 1])!
        // The two moments keep their monotonic spacing (80 ms) on the wall clock, to the microsecond.
        #expect(abs((present - exposure) - 0.08) < 2e-6, "\(present) − \(exposure)")
        // And they are the wall clock's (the present was now).
        #expect(abs(present - Date().timeIntervalSince1970) < 5)
        #expect(lines[2].hasSuffix(",-1"), "no sample, no exposure: \(lines[2])")
    }

    @Test func aSessionRecordingAtPresentWritesNothingWhenThePoseIsRead() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("session-\(getpid()).csv").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        var options = HeadTrackingOptions()
        options.head = try HeadSourceSpec(parsing: "fixed:0,0,0.6")
        options.recordPath = path
        let session = try HeadTrackingSession(options: options)
        session.recordsAtPresent = true
        try session.start()
        let pose = session.pose(at: 1.0)
        _ = session.pose(at: 1.01)           // read again: a frame dropped before it was shown
        #expect(session.recorder?.rows == 0)
        session.presented(pose, at: 1.02)
        #expect(session.recorder?.rows == 1)
        session.stop()
    }
}
