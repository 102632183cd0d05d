// A still face moved synthetically: signs and magnitudes against the pinhole model, and jitter.
import Media
import Foundation
import Testing
import HeadTracking
import TestSupport
@testable import WebcamTracking

@Suite(.enabled(if: TestData.isAvailable, TestData.skipMessage))
struct SyntheticMotionTests {
    /// The astronaut's face placed in a 640×480 frame at scale `s`, shifted by (dx, dy) pixels.
    static func frame(_ still: RGBFrame, scale s: Double, dx: Double = 0, dy: Double = 0) throws -> RGBFrame {
        // Face centre near (222, 110) in the still: put it at the frame centre, then move.
        try still.warped(scale: s, tx: 320 - 222 * s + dx, ty: 240 - 110 * s + dy, width: 640, height: 480)
    }

    @Test func movingTheFaceMovesTheEyeTheWayAMirroredCameraSays() throws {
        let pipeline = try WebcamTestSupport.pipeline()
        let still = try RGBFrame.read(path: TestData.path("video/astronaut.png"))
        func eye(_ f: RGBFrame, _ what: String) throws -> EyePoints {
            pipeline.reset()
            return try #require(try pipeline.process(f).eyes, "no eyes found: \(what)")
        }
        let base = try eye(try Self.frame(still, scale: 1), "centred")
        let right = try eye(try Self.frame(still, scale: 1, dx: 60), "60 px right")
        let down = try eye(try Self.frame(still, scale: 1, dy: 50), "50 px down")
        let f = pipeline.model.focal(forWidth: 640)
        // Image right = screen −x, by 60 px · z / f.
        #expect(right.centre.x < base.centre.x)
        #expect(abs((base.centre.x - right.centre.x) - 60 * base.distance / f) < 0.1 * 60 * base.distance / f)
        // Image down = screen down; distance unchanged.
        #expect(down.centre.y < base.centre.y && abs(down.distance - base.distance) < 0.03 * base.distance)
        // Scaling the face by s changes z by 1/s within 5 %.
        // At 0.7 the face (≈ 55 px) is below the landmarker's own face detector: the landmarker
        // pipeline's BlazeFace backup measures it by eye spacing, a different model (10 %).
        for (s, tolerance) in [(0.7, pipeline.backend == .landmarker ? 0.1 : 0.05), (1.4, 0.05)] {
            let scaled = try eye(try Self.frame(still, scale: s), "scaled \(s)")
            #expect(abs(scaled.distance / base.distance * s - 1) < tolerance, "scale \(s): z ratio \(scaled.distance / base.distance)")
        }
    }

    @Test func stillFaceJitterEyesBeatTheFaceBoxAndTheFilterHelps() throws {
        let pipeline = try WebcamTestSupport.pipeline()
        let haar = try WebcamTestSupport.pipeline(.haar)
        var haarBox: [Double] = []
        // Scale 1.5: a ~130-pixel face, about 0.6 m from a 60° camera at 640×480.
        let still = try Self.frame(try RGBFrame.read(path: TestData.path("video/astronaut.png")), scale: 1.5)
        var rng = SystemRandomNumberGenerator()
        let tracker = HeadTracker(source: FixedSource(eye: Vec3d(0, 0, 0.6)), settings: HeadTrackerSettings())
        var raw: [Double] = [], box: [Double] = [], filtered: [Double] = []
        // Camera-like noise: Gaussian, σ = 3 levels, from a table of 64k precomputed values.
        let table: [Int16] = (0..<65536).map { _ in
            let u1 = Double.random(in: 1e-9..<1, using: &rng), u2 = Double.random(in: 0..<1, using: &rng)
            return Int16((3 * (-2 * log(u1)).squareRoot() * cos(2 * .pi * u2)).rounded())
        }
        for i in 0..<60 {
            var noisy = still
            var k = Int.random(in: 0..<65536, using: &rng)
            noisy.pixels.withUnsafeMutableBufferPointer { px in
                for j in px.indices {
                    k = (k &* 1_103_515_245 &+ 12345) & 0xFFFF
                    px[j] = UInt8(clamping: Int(px[j]) + Int(table[k]))
                }
            }
            let o = try pipeline.process(noisy)
            let e = try #require(o.eyes, "frame \(i): no eyes")
            raw.append(e.distance); box.append(try #require(o.boxDistance))
            if let b = try haar.process(noisy).boxDistance { haarBox.append(b) }
            let t = Double(i) / 30
            let pose = tracker.update(sample: PoseSample(timestamp: t, position: e.centre), at: t)
            if i >= 20 { filtered.append(pose.position.z) }
        }
        _ = tracker
        let sRaw = WebcamTestSupport.standardDeviation(raw) * 1000, sBox = WebcamTestSupport.standardDeviation(box) * 1000
        let sFilt = WebcamTestSupport.standardDeviation(filtered) * 1000
        let sHaar = WebcamTestSupport.standardDeviation(haarBox) * 1000
        let meanZ = raw.reduce(0, +) / Double(raw.count)
        print(String(format: "still-face z jitter (%@, z %.2f m, 60 noisy frames): eyes raw %.2f mm (%.2f %% of z), eyes + default filter %.2f mm; face-box width: %@ box %.2f mm, Haar box %.2f mm (%.1f× the eyes', %d/60 frames)",
                     pipeline.backend.rawValue, meanZ, sRaw, sRaw / meanZ / 10, sFilt, pipeline.backend.rawValue,
                     sBox, sHaar, sHaar / max(1e-9, sRaw), haarBox.count))
        #expect(sFilt <= sRaw)
        #expect(haarBox.count >= 50)
        if pipeline.backend != .haar {
            #expect(sHaar > 2 * sRaw, "the eye-landmark distance should beat a face-box-width tracker by a wide margin")
        }
    }
}

extension SyntheticMotionTests {
    /// Two astronauts in one 640×480 frame: one at `a` (face centre, pixels; scale 1), and from
    /// `withSecond` on a larger one (scale 1.5) pasted into the right half.
    static func crowd(_ still: RGBFrame, second: Bool) throws -> RGBFrame {
        var frame = try still.warped(scale: 1, tx: 180 - 222, ty: 240 - 110, width: 640, height: 480)
        guard second else { return frame }
        let other = try still.warped(scale: 1.5, tx: 480 - 222 * 1.5, ty: 240 - 110 * 1.5, width: 640, height: 480)
        for y in 0..<480 { for x in 330..<640 { for c in 0..<3 { frame.pixels[(y * 640 + x) * 3 + c] = other.pixels[(y * 640 + x) * 3 + c] } } }
        return frame
    }

    @Test("the tracked face is kept when a larger face walks in")
    func theTrackedFaceIsKeptAmongSeveral() throws {
        let pipeline = try WebcamTestSupport.pipeline()
        let still = try RGBFrame.read(path: TestData.path("video/astronaut.png"))
        let alone = try Self.crowd(still, second: false), both = try Self.crowd(still, second: true)
        for i in 0..<20 {
            var frame = i < 5 ? alone : both
            frame.timestamp = Double(i) / 30
            let o = try pipeline.process(frame)
            let face = try #require(o.face, "frame \(i): no face")
            #expect(face.centre.x < 320, "frame \(i): the tracker moved to the face at x \(face.centre.x)")
        }
        // Started on the crowd, the tracker takes one face and stays on it.
        let fresh = try WebcamTestSupport.pipeline()
        var firstX: Double?
        for i in 0..<10 {
            var frame = both
            frame.timestamp = Double(i) / 30
            let x = try #require(try fresh.process(frame).face?.centre.x)
            if let f = firstX { #expect(abs(x - f) < 40, "frame \(i): jumped from \(f) to \(x)") } else { firstX = x }
        }
    }
}
