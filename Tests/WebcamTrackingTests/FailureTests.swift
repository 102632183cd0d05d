// No camera, an unreadable video, missing models, face selection: clear errors, no hangs.
import Foundation
import Testing
import HeadTracking
import TestSupport
@testable import WebcamTracking

@Suite struct WebcamFailureTests {
    @Test func aMissingCameraFailsFastWithOneLine() throws {
        let t0 = Date()
        #expect(throws: WebcamError.self) { try WebcamCapture(.device(7)) }
        do { _ = try WebcamCapture(.device(7)) } catch {
            #expect("\(error)".contains("/dev/video7") && !"\(error)".contains("\n"), "\(error)")
        }
        #expect(Date().timeIntervalSince(t0) < 5)
        #expect(try CaptureSource.device(parsing: "/dev/video2") == .device(2))
        #expect(try CaptureSource.device(parsing: nil) == .device(0))
        #expect(throws: WebcamError.self) { try CaptureSource.device(parsing: "front") }
    }

    @Test func unreadableVideosNameTheFile() throws {
        let dir = TestData.temporaryDirectory("webcam-bad")
        let garbage = dir.appendingPathComponent("garbage.avi").path
        try Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 37) }).write(to: URL(fileURLWithPath: garbage))
        for path in [garbage, dir.appendingPathComponent("missing.mp4").path] {
            do { _ = try WebcamCapture(.file(path)); Issue.record("\(path) opened") } catch {
                #expect("\(error)".contains(path) && !"\(error)".contains("\n"), "\(error)")
            }
        }
    }

    @Test func missingModelsFallBackToHaarWithANotice() throws {
        let empty = WebcamModels(directory: TestData.temporaryDirectory("no-models").path)
        #expect(throws: WebcamError.self) { try FaceDetector(backend: .mediapipe, models: empty) }
        var notices: [String] = []
        let detector = try FaceDetector.best(models: empty) { notices.append($0) }
        #expect(detector.backend == .haar && notices.count == 1 && notices[0].contains("Haar"))
        let bogus = WebcamModels(directory: TestData.temporaryDirectory("bogus-models").path)
        try FileManager.default.createDirectory(atPath: bogus.directory, withIntermediateDirectories: true)
        try Data("not a library".utf8).write(to: URL(fileURLWithPath: bogus.library))
        try Data("not a model".utf8).write(to: URL(fileURLWithPath: bogus.shortRangeModel))
        do { _ = try FaceDetector(backend: .mediapipe, models: bogus); Issue.record("a bogus library loaded") } catch {
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
