// The real detector on real footage: Megamind.avi (an animated face) and astronaut.png.
import Media
import Foundation
import Testing
import HeadTracking
import TestSupport
@testable import WebcamTracking

@Suite(.enabled(if: TestData.isAvailable, TestData.skipMessage))
struct RealFootageTests {
    @Test(arguments: DetectorBackend.allCases)
    func astronautHasOneFaceWithEyesOnHerEyes(backend: DetectorBackend) throws {
        if backend == .blazeface && !WebcamTestSupport.mediapipeAvailable { print(WebcamTestSupport.mediapipeSkip); return }
        if backend == .landmarker && !WebcamTestSupport.landmarkerAvailable { print(WebcamTestSupport.landmarkerSkip); return }
        let pipeline = try WebcamTestSupport.pipeline(backend)
        let capture = try VideoCapture(.file(TestData.path("video/astronaut.png")))
        #expect(capture.width == 512 && capture.height == 512 && capture.frameCount == 1)
        var frame = RGBFrame()
        #expect(try capture.read(into: &frame, timestamp: 0))
        let faces = try WebcamTestSupport.faces(pipeline, frame)
        #expect(faces.count == 1, "\(backend): \(faces)")
        let eyes = try #require(faces.first?.eyes, "\(backend) found no eyes")
        // Her eyes, read off the picture: right eye (image left) near (200, 104), left near (244, 102).
        #expect(abs(eyes.right.x - 200) < 9 && abs(eyes.right.y - 104) < 9, "\(backend) right eye \(eyes.right)")
        #expect(abs(eyes.left.x - 244) < 9 && abs(eyes.left.y - 102) < 9, "\(backend) left eye \(eyes.left)")
    }

    @Test(.enabled(if: WebcamTestSupport.mediapipeAvailable, WebcamTestSupport.mediapipeSkip))
    func megamindFaceAndBothEyesInNineOutOfTenFrames() throws {
        let pipeline = try WebcamTestSupport.pipeline(.blazeface)
        let capture = try VideoCapture(.file(TestData.path("video/Megamind.avi")))
        var frame = RGBFrame()
        var frames = 0, withEyes = 0, inRange = 0
        var distances: [Double] = [], steps: [Double] = []
        var times: [Double] = []
        while try capture.read(into: &frame, timestamp: Double(frames) / max(1, capture.fps)) {
            frames += 1
            let o = try pipeline.process(frame)
            times.append(o.processingTime * 1000)
            guard let e = o.eyes else { continue }
            withEyes += 1
            if e.distance >= 0.3 && e.distance <= 1.5 { inRange += 1 }
            if let last = distances.last { steps.append(abs(e.distance - last)) }
            distances.append(e.distance)
        }
        times.sort()
        print(String(format: "Megamind (blazeface): %d frames, eyes in %d (%.1f %%), distance %.2f–%.2f m, median frame-to-frame |Δz| %.1f mm, median %.2f ms/frame",
                     frames, withEyes, 100 * Double(withEyes) / Double(max(1, frames)), distances.min() ?? 0, distances.max() ?? 0,
                     (steps.sorted().dropFirst(steps.count / 2).first ?? 0) * 1000, times[times.count / 2]))
        #expect(frames == 270)
        #expect(Double(withEyes) >= 0.9 * Double(frames))
        #expect(inRange == withEyes, "every distance within 0.3–1.5 m")
    }

    @Test(.enabled(if: WebcamTestSupport.landmarkerAvailable, WebcamTestSupport.landmarkerSkip))
    func megamindIsTrackedByTheLandmarkerInNinetyNineFramesOfAHundred() throws {
        let pipeline = try WebcamTestSupport.pipeline(.landmarker)
        let capture = try VideoCapture(.file(TestData.path("video/Megamind.avi")))
        var frame = RGBFrame()
        var frames = 0, posed = 0
        while try capture.read(into: &frame, timestamp: Double(frames) / max(1, capture.fps)) {
            frames += 1
            let o = try pipeline.process(frame)
            if o.eyes != nil, o.angles != nil, o.search == .landmarks { posed += 1 }
        }
        print("Megamind (landmarker): \(posed) of \(frames) frames with a head pose")
        #expect(pipeline.backend == .landmarker && frames == 270)
        #expect(Double(posed) >= 0.99 * Double(frames), "\(posed) of \(frames)")
    }
}
