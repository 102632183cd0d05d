// No camera, an unreadable video, missing models, face selection: clear errors, no hangs.
import Media
import Foundation
import Testing
import HeadTracking
import RenderCore
import TestSupport
@testable import WebcamTracking

/// A camera index with no `/dev/videoN` on this machine (checked now, not assumed): the first
/// free one from 7 up.
private func absentCameraIndex() throws -> Int {
    try #require(CameraDevices.absentIndex(), "every /dev/video7…999 exists")
}


@Suite struct WebcamFailureTests {
    @Test func aMissingCameraFailsFastWithOneLine() throws {
        let n = try absentCameraIndex()
        // "Fast" means it returns rather than waiting on a device: opened on another thread, a hang
        // fails on the generous deadline. No figure of seconds is asserted.
        let opened = Wait.returns { () throws -> Bool in _ = try VideoCapture(.device(n)); return true }
        switch opened {
        case nil: Issue.record("opening the absent /dev/video\(n) hung")
        case .success?: Issue.record("/dev/video\(n) opened, but it does not exist")
        case .failure(let error)?:
            #expect(error is MediaError, "\(error)")
            #expect(CameraDevices.names("\(error)", n) && !"\(error)".contains("\n"), "\(error)")
        }
        #expect(try CaptureSource.device(parsing: "/dev/video2") == .device(2))
        #expect(try CaptureSource.device(parsing: nil) == .device(0))
        #expect(throws: MediaError.self) { try CaptureSource.device(parsing: "front") }
    }

    @Test func unreadableVideosNameTheFile() throws {
        let dir = TestData.temporaryDirectory("webcam-bad")
        let garbage = dir.appendingPathComponent("garbage.avi").path
        try Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 37) }).write(to: URL(fileURLWithPath: garbage))
        for path in [garbage, dir.appendingPathComponent("missing.mp4").path] {
            do { _ = try VideoCapture(.file(path)); Issue.record("\(path) opened") } catch {
                #expect("\(error)".contains(path) && !"\(error)".contains("\n"), "\(error)")
            }
        }
    }

    @Test func missingModelsFallBackToHaarWithANotice() throws {
        let empty = WebcamModels(directory: TestData.temporaryDirectory("no-models").path)
        #expect(throws: WebcamError.self) { try FaceDetector(backend: .blazeface, models: empty) }
        #expect(throws: WebcamError.self) { try FaceLandmarker(models: empty) }
        var notices: [String] = []
        let pipeline = try EyePipeline.best(models: empty, model: PinholeEyeModel()) { notices.append($0) }
        #expect(pipeline.backend == .haar && notices.count == 2, "\(notices)")
        #expect(notices.first?.contains("landmarker unavailable") == true && notices.last?.contains("Haar") == true, "\(notices)")
        #expect(throws: WebcamError.self) { try EyePipeline.best(models: empty, model: PinholeEyeModel(), prefer: .landmarker) { _ in } }
        let bogus = WebcamModels(directory: TestData.temporaryDirectory("bogus-models").path)
        try FileManager.default.createDirectory(atPath: bogus.directory, withIntermediateDirectories: true)
        try Data("not a library".utf8).write(to: URL(fileURLWithPath: bogus.library))
        try Data("not a model".utf8).write(to: URL(fileURLWithPath: bogus.shortRangeModel))
        do { _ = try FaceDetector(backend: .blazeface, models: bogus); Issue.record("a bogus library loaded") } catch {
            #expect(!"\(error)".contains("\n"), "\(error)")
        }
    }

    @Test func theTrackerKeepsItsFaceElseTakesTheLargest() throws {
        func face(_ x: Double, _ w: Double) -> DetectedFace { DetectedFace(x: x, y: 100, width: w, height: w, score: 0.9, eyes: nil) }
        var tracker = FaceTracker()
        var calls: [String] = []
        let first = tracker.track(width: 640, height: 480) { roi, full in
            calls.append(roi == nil ? (full ? "full-range" : "full") : "roi"); return [face(10, 50), face(300, 120)]
        }
        #expect(first.face == face(300, 120) && first.search == .fullFrame && calls == ["full", "roi"], "a whole-frame hit is refined in a crop")
        calls = []
        // Near the last face: a smaller face overlapping the tracked one wins over a larger one elsewhere.
        let second = tracker.track(width: 640, height: 480) { roi, _ in
            calls.append(roi == nil ? "full" : "roi"); return roi == nil ? [] : [face(0, 200), face(310, 100)]
        }
        #expect(second.face == face(310, 100) && second.search == .nearLastFace && calls == ["roi"])
        calls = []
        let lost = tracker.track(width: 640, height: 480) { roi, full in
            calls.append(roi == nil ? (full ? "full-range" : "full") : "roi"); return []
        }
        #expect(lost.face == nil && lost.search == .none && calls == ["roi", "full", "full-range"] && tracker.lastFace == nil)
    }
}

@Suite(.enabled(if: TestData.isAvailable, TestData.skipMessage))
struct WebcamSourceLifecycleTests {
    /// A video that disappears mid-session: the source reports the failure, keeps its last
    /// sample, stops promptly; the tracker holds then eases to the neutral eye. Played 20× fast.
    @Test func aVanishingVideoEndsCaptureWithANoticeNotAHang() throws {
        let dir = TestData.temporaryDirectory("vanishing")
        let copy = dir.appendingPathComponent("clip.avi").path
        try FileManager.default.copyItem(atPath: TestData.path("video/Megamind.avi"), toPath: copy)
        let start = MonotonicClock.now()
        let fast: ClockFunction = { start + (MonotonicClock.now() - start) * 20 }
        let source = WebcamSource(capture: try VideoCapture(.file(copy)), pipeline: try WebcamTestSupport.pipeline(), clock: fast)
        try source.start()
        #expect(Wait.until(poll: 0.02) { source.status().processed >= 10 }, "processed \(source.status().processed)")
        #expect(source.latest().map { $0.confidence > 0 } == true)
        try FileManager.default.removeItem(atPath: copy)
        // The loop's end reopens the file: the capture fails then (the deadline only catches a hang).
        Wait.until(timeout: 60, poll: 0.025) { source.status().failure != nil }
        let failure = try #require(source.status().failure, "no failure reported after the file vanished")
        #expect(failure.contains(copy) && !failure.contains("\n"), "\(failure)")
        #expect(source.statusSummary?.hasPrefix("webcam: ") == true)
        #expect(source.latest() != nil, "the last sample stays readable")
        // stop must not hang: it returns (a hang fails on the deadline, on another thread), and
        // afterwards the failure and the last sample are still there. No figure of seconds.
        #expect(Wait.returns { source.stop() } != nil, "stop hung")
        #expect(source.status().failure == failure && source.latest() != nil)
        // The tracker sees stale samples: it holds, then eases to the neutral eye.
        let tracker = HeadTracker(source: source, settings: HeadTrackerSettings())
        let later = (source.latest()?.timestamp ?? 0) + 5
        #expect(tracker.update(sample: source.latest(), at: later).state != .tracking)
    }

    @Test func calibrationFitsTheIPDThatReproducesTheTapeDistance() throws {
        let pipeline = try WebcamTestSupport.pipeline()
        let still = try RGBFrame.read(path: TestData.path("video/astronaut.png"))
        let frame = try still.warped(scale: 1.4, tx: 320 - 222 * 1.4, ty: 240 - 110 * 1.4, width: 640, height: 480)
        let observations = try (0..<12).map { _ in try pipeline.process(frame) }
        let measuredWith = pipeline.model
        let r = try WebcamCalibration.fit(observations, distance: 0.7, model: measuredWith, fit: .ipd)
        var calibrated = pipeline.model
        calibrated.ipd = r.value / 1000
        pipeline.model = calibrated
        pipeline.reset()
        let z = try #require(try pipeline.process(frame).eyes?.distance)
        #expect(abs(z - 0.7) < 0.01, "calibrated z \(z)")
        #expect(r.key == "ipdMM" && r.framesUsed == 12)
        // Distance is proportional to the IPD and to the focal length: both fits scale by the same ratio.
        let f = try WebcamCalibration.fit(observations, distance: 0.7, model: measuredWith, fit: .focal)
        #expect(f.key == "cameraFocalPx")
        #expect(abs(f.value / measuredWith.focalPixels - r.value / (measuredWith.ipd * 1000)) < 0.002, "\(f.value) \(r.value)")
        #expect(throws: WebcamError.self) { try WebcamCalibration.fit([], distance: 0.6, model: pipeline.model, fit: .ipd) }
    }
}

extension WebcamSourceLifecycleTests {
    /// A still face read as a video: the source publishes confident samples with both eyes
    /// (an IPD apart along x), the roll, a camera preview for the inset, and calibrates in place.
    @Test func aStillFacePublishesEyesRollPreviewAndCalibrates() throws {
        let source = WebcamSource(capture: try VideoCapture(.file(TestData.path("video/astronaut.png"))),
                                  pipeline: try WebcamTestSupport.pipeline())
        try source.start()
        defer { source.stop() }
        Wait.until(poll: 0.02) { (source.latest()?.confidence ?? 0) > 0 }
        let sample = try #require(source.latest())
        let span = try #require(sample.eyeSpan)
        #expect(abs(span.x - 0.063) < 0.003 && abs(span.z) < 0.02, "\(span)")
        #expect(sample.rotation?.z != nil && sample.confidence > 0.5)
        let preview = try #require(source.cameraPreview())
        #expect(preview.width == 512 && preview.rgb.count == 512 * 512 * 3 && preview.eyes.count == 2 && preview.faceBox != nil)
        let tracker = HeadTracker(source: source, settings: HeadTrackerSettings())
        let pose = tracker.update(sample: sample, at: sample.timestamp)
        #expect(pose.eyeSpan != nil)

        source.beginCalibration(distance: 0.5, seconds: 0.5)
        var result: Result<CameraCalibrationResult, HeadTrackingError>?
        Wait.until(poll: 0.02) { result = source.takeCalibrationResult(); return result != nil }
        let processedAtResult = source.status().processed
        let r = try #require(try result?.get())
        #expect(r.key == "ipdMM" && r.value > 40 && r.value < 90)
        // The processing thread applies the new IPD from its next frame on: wait for a frame
        // processed after the result whose distance is the taped one.
        let applied = Wait.until(poll: 0.02) {
            source.status().processed > processedAtResult && abs((source.latest()?.position.z ?? 0) - 0.5) < 0.01
        }
        #expect(applied, "processed \(source.status().processed) (\(processedAtResult) at the result)")
        #expect(abs((source.latest()?.position.z ?? 0) - 0.5) < 0.01)
    }
}
