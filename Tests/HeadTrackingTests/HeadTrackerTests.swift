// HeadTrackerTests — calibration, movement scale and lost-tracking easing, on synthetic time.
import Foundation
import Testing
import Settings
@testable import HeadTracking

@Suite struct HeadTrackerTests {
    private func unfiltered() -> HeadTrackerSettings {
        var s = HeadTrackerSettings(); s.filter = .none; return s
    }

    @Test func firstSampleEasesInFromNeutralThenTracks() {
        let t = HeadTracker(settings: unfiltered())
        let p = Vec3d(0.1, 0.05, 0.5)
        var last = t.update(sample: nil, at: 0)
        #expect(last.state == .lost && last.position == Vec3d(0, 0, 0.6))
        var states: [TrackingState] = []
        for k in 1...60 {
            let time = Double(k) / 60
            let pose = t.update(sample: PoseSample(timestamp: time, position: p), at: time)
            #expect(length(pose.position - last.position) < 0.01, "no jump at frame \(k)")
            states.append(pose.state); last = pose
        }
        #expect(states.first == .easingIn)
        #expect(states.last == .tracking)
        #expect(last.position == p)
    }

    @Test func lostTrackingHoldsThenEasesToNeutralThenEasesBack() {
        var s = unfiltered()
        s.holdDuration = 0.5; s.easeOutDuration = 1.0; s.easeInDuration = 0.5; s.staleAfter = 0.25
        let t = HeadTracker(settings: s)
        let p = Vec3d(0.2, -0.1, 0.5)
        let fps = 100.0
        var k = 0
        func frame(_ sample: PoseSample?) -> HeadPose { k += 1; return t.update(sample: sample, at: Double(k) / fps) }
        // Track for 1 s (ease-in done).
        var pose = frame(nil)
        for _ in 0..<100 { pose = frame(PoseSample(timestamp: Double(k + 1) / fps, position: p)) }
        #expect(pose.state == .tracking && pose.position == p)
        let lastSampleTime = Double(k) / fps
        // The source goes silent: the same (old) sample keeps being returned.
        let stale = PoseSample(timestamp: lastSampleTime, position: p)
        var seen: [TrackingState: Double] = [:]
        var prev = pose.position
        var maxStep = 0.0
        for _ in 0..<250 {
            pose = frame(stale)
            let now = Double(k) / fps
            if seen[pose.state] == nil { seen[pose.state] = now - lastSampleTime }
            maxStep = max(maxStep, length(pose.position - prev)); prev = pose.position
        }
        // Fresh for 250 ms, then hold 0.5 s, ease 1 s, then lost at the neutral eye.
        #expect(abs(seen[.holding]! - 0.26) < 0.011)
        #expect(abs(seen[.easingOut]! - 0.76) < 0.011)
        #expect(abs(seen[.lost]! - 1.76) < 0.011)
        #expect(pose.position == Vec3d(0, 0, 0.6))
        // Smoothstep over 1 s from 0.245 m away: max per-frame step ≈ 1.5 · 0.245 / 100.
        #expect(maxStep < 1.5 * length(p - Vec3d(0, 0, 0.6)) / fps + 1e-9)
        // Tracking returns: ease in, never snap.
        var back: [TrackingState] = []
        for _ in 0..<100 {
            let now = Double(k + 1) / fps
            pose = frame(PoseSample(timestamp: now, position: p))
            back.append(pose.state)
            #expect(length(pose.position - prev) < 0.02); prev = pose.position
        }
        #expect(back.first == .easingIn && back.last == .tracking)
        #expect(pose.position == p)
    }

    @Test func confidenceZeroCountsAsLost() {
        let t = HeadTracker(settings: unfiltered())
        for k in 0..<60 { t.update(sample: PoseSample(timestamp: Double(k) / 60, position: Vec3d(0.1, 0, 0.6)), at: Double(k) / 60) }
        let pose = t.update(sample: PoseSample(timestamp: 1, position: Vec3d(0.3, 0, 0.6), confidence: 0), at: 1)
        #expect(pose.state == .holding)
        #expect(abs(pose.position.x - 0.1) < 1e-12)
    }

    @Test func lossDuringEaseInHoldsWhereItIs() {
        let t = HeadTracker(settings: unfiltered())
        _ = t.update(sample: PoseSample(timestamp: 0, position: Vec3d(0.2, 0, 0.6)), at: 0)
        let mid = t.update(sample: PoseSample(timestamp: 0.2, position: Vec3d(0.2, 0, 0.6)), at: 0.2)
        #expect(mid.state == .easingIn)
        let held = t.update(sample: nil, at: 0.21)
        #expect(held.state == .holding && held.position == mid.position)
    }

    @Test func movementScaleAndAxisStrengthScaleAboutTheNeutralEye() {
        var s = unfiltered()
        s.movementScale = 2; s.axisStrength = Vec3d(1, 0.5, 0)
        let t = HeadTracker(settings: s)
        #expect(t.calibrated(Vec3d(0.1, 0.1, 0.5)) == Vec3d(0.2, 0.1, 0.6))
        var c = unfiltered()
        c.calibrationAxes = try! AxisMapping(parsing: "x,-z,y"); c.calibrationOffset = Vec3d(0, 0, 0.6)
        #expect(HeadTracker(settings: c).calibrated(Vec3d(0.1, 0.2, 0.3)) == Vec3d(0.1, -0.3, 0.8))
    }

    @Test func filterRunsOnSampleTimestampsNotFrames() {
        // Two frames showing the same sample must not advance the EMA twice.
        var s = HeadTrackerSettings(); s.filter = .ema(alpha: 0.3); s.easeInDuration = 0
        let t = HeadTracker(settings: s)
        _ = t.update(sample: PoseSample(timestamp: 0, position: .zero), at: 0)
        let a = t.update(sample: PoseSample(timestamp: 1.0 / 30, position: Vec3d(1, 0, 0)), at: 1.0 / 30)
        let b = t.update(sample: PoseSample(timestamp: 1.0 / 30, position: Vec3d(1, 0, 0)), at: 1.5 / 30)
        #expect(abs(a.position.x - 0.3) < 1e-12)
        #expect(a.position == b.position)
    }

    @Test func latencyAndEyeClamp() {
        let t = HeadTracker(settings: unfiltered())
        let pose = t.update(sample: PoseSample(timestamp: 1, position: Vec3d(0, 0, -1), publishTime: 1.01), at: 1.05)
        #expect(abs(pose.latency! - 0.04) < 1e-12)
        #expect(pose.eye.z >= 0.01)
    }

    @Test func mouseMapsWindowEdgesToScreenEdges() {
        let clock: ClockFunction = { 5 }
        let m = MouseSource(screenSize: SIMD2(0.6, 0.34), clock: clock)
        m.update(normalizedX: 1, normalizedY: 0)
        #expect(m.latest()!.position == Vec3d(0.3, 0.17, 0.6))
        m.update(normalizedX: 0.5, normalizedY: 0.5)
        #expect(m.latest()!.position == Vec3d(0, 0, 0.6))
        m.update(normalizedX: -3, normalizedY: .nan)
        #expect(m.latest()!.position == Vec3d(0, 0, 0.6))
        m.scroll(delta: 2)
        #expect(abs(m.latest()!.position.z - 0.5) < 1e-12)
        m.scroll(delta: -1000)
        #expect(m.latest()!.position.z == 3)
        #expect(m.latest()!.timestamp == 5)
        #expect(FixedSource(eye: Vec3d(0, 0.1, 0.7), clock: clock).latest()!.position == Vec3d(0, 0.1, 0.7))
    }

    @Test func recorderWritesAReplayableLog() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("ht-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("rec.csv").path
        let rec = try PoseRecorder(path: path, comment: ["test"])
        let t = HeadTracker(settings: HeadTrackerSettings())
        for k in 0..<30 {
            let time = 100 + Double(k) / 30
            let sample = k < 20 ? PoseSample(timestamp: time, position: Vec3d(0.01 * Double(k), 0, 0.6)) : nil
            try rec.record(t.update(sample: sample, at: time))
        }
        try rec.close()
        let back = try PoseLogReader().read(path: path)
        #expect(back.samples.count == 30)
        #expect(back.samples[0].timestamp == 0)
        #expect(back.samples[5].position.x == 0.05)
        #expect(back.samples[29].confidence == 0)
    }

    @Test("a webcam recording keeps the head's angles and both eyes, and a replay carries them (stereo from the logged eyes)")
    func recorderEyesAndAnglesRoundTrip() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("rec-eyes-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("rec.csv").path
        let rec = try PoseRecorder(path: path, eyes: true)
        let t = HeadTracker(settings: HeadTrackerSettings())
        let deg = Double.pi / 180
        for k in 0..<10 {
            let time = Double(k) / 30
            // Turning: the right eye comes forward as the left goes back.
            let yaw = Double(k) * 2 * deg
            let span = Vec3d(0.063 * cos(yaw), 0, 0.063 * sin(yaw))
            try rec.record(t.update(sample: PoseSample(timestamp: time, position: Vec3d(0.01, 0.02, 0.6),
                                                       rotation: Vec3d(yaw, 0, 0), eyeSpan: span), at: time))
        }
        try rec.close()
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains(",yaw,pitch,roll,left_x,left_y,left_z,right_x,right_y,right_z\n"))
        let back = try PoseLogReader().read(path: path)
        #expect(back.hasRotation && back.samples.count == 10)
        let last = back.samples[9]
        #expect(abs((last.rotation?.x ?? 0) - 18 * deg) < 1e-6)
        let span = try #require(last.eyeSpan)
        #expect(abs(span.x - 0.063 * cos(18 * deg)) < 1e-6 && abs(span.z - 0.063 * sin(18 * deg)) < 1e-6, "\(span)")
        // Halfway between two logged frames, a replay's eye span is halfway between theirs.
        let replay = ReplaySource(log: back, loop: false)
        let mid = replay.sample(at: (back.samples[3].timestamp + back.samples[4].timestamp) / 2)
        let expected = ((back.samples[3].eyeSpan ?? .zero) + (back.samples[4].eyeSpan ?? .zero)) / 2
        #expect(mid?.eyeSpan.map { (($0 - expected) * ($0 - expected)).sum() < 1e-12 } == true)
    }

    @Test("a dominant eye moves the mono eye half the measured eye span; stereo keeps both eyes about the midpoint")
    func dominantEyeMovesTheMonoEye() throws {
        var settings = HeadTrackerSettings()
        settings.monoEye = .right
        let t = HeadTracker(settings: settings)
        let span = Vec3d(0.06, 0, -0.02)
        let pose = t.update(sample: PoseSample(timestamp: 0, position: Vec3d(0.1, 0.2, 0.6), eyeSpan: span), at: 0)
        #expect(pose.monoEye == .right)
        let e = pose.eye
        #expect(abs(Double(e.x) - (pose.position.x + 0.03)) < 1e-6 && abs(Double(e.z) - (pose.position.z - 0.01)) < 1e-6, "\(e)")
        var config = ConfigFile()
        config.dominantEye = "left"
        #expect(try SettingsResolver.resolve(config: config, configPath: nil, flags: HeadTrackingOptions()).trackerSettings.monoEye == .left)
        config.dominantEye = "middle"
        #expect(throws: HeadTrackingError.self) { try SettingsResolver.resolve(config: config, configPath: nil, flags: HeadTrackingOptions()) }
        #expect(try SettingsResolver.resolve(config: nil, configPath: nil, flags: HeadTrackingOptions()).trackerSettings.monoEye == .midpoint)
    }
}
