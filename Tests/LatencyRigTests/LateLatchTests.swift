// The late latch on times the test gives: the eye read again after rendering is the one the
// presented frame shows, and the frame is warped to it (exactly as Timewarp warps it).
import Foundation
import HeadTracking
import LatencyRig
import RenderCore
import Reprojection
import Testing
import TestSupport
import Viewer

@Suite("Late latch")
struct LateLatchTests {
    /// An eye source reading a tracker at a time the test sets.
    final class Scripted: EyeSource {
        let tracker: HeadTracker
        var sample: PoseSample
        var time: Double
        init(tracker: HeadTracker, sample: PoseSample, time: Double) { self.tracker = tracker; self.sample = sample; self.time = time }
        var name: String { "scripted" }
        func view(frame index: Int) -> FrameView { .pose(tracker.update(sample: sample, at: time)) }
    }

    /// A tracker that shows each sample as it is: no filter, no prediction, no ease-in.
    static func rawTracker() -> HeadTracker {
        var settings = HeadTrackerSettings()
        settings.filter = .none
        settings.predictionHorizon = nil
        settings.easeInDuration = 0
        return HeadTracker(settings: settings)
    }

    @Test func thePresentedFrameShowsTheEyeReadAfterRendering() throws {
        let tracker = Self.rawTracker()
        tracker.presentLead = 0.02
        let setup = ViewingSetup()
        let driver = FrameDriver(scene: try SceneLoader.load(path: "cube").scene(screen: setup.screen.value), setup: setup,
                                 context: RenderContext(threads: 2, producesDepth: true), width: 160, height: 90)
        let early = PoseSample(timestamp: 1.0, position: Vec3d(0, 0, 0.6), confidence: 1, publishTime: 1.0)
        let eyes = Scripted(tracker: tracker, sample: early, time: 1.01)
        let record = driver.renderFrame(from: eyes, index: 0)
        let drawn = driver.framebuffer.colorArray

        // A newer sample arrives while the frame renders: the head moved 1 cm to the right.
        let newer = PoseSample(timestamp: 1.02, position: Vec3d(0.01, 0, 0.6), confidence: 1, publishTime: 1.02)
        let latch = LateLatch(threads: 2)
        let late = try #require(latch.latch(record, driver: driver, tracker: tracker,
                                            readPose: { tracker.update(sample: newer, at: $0) }, now: { 1.03 }))
        #expect(late.position == newer.position && late.time == 1.03 && late.sampleTime == 1.02)
        #expect(tracker.presentLead == 0.02, "the frame's own lead is restored after the late read")

        // The frame shown is the drawn frame warped to the later eye, and not the drawn frame.
        let expected = Framebuffer(width: 160, height: 90)
        _ = try Timewarp(threads: 1).warp(driver.framebuffer, from: record.camera, to: driver.camera(for: .pose(late)), into: expected)
        #expect(latch.output.colorArray == expected.colorArray)
        #expect(latch.output.colorArray != drawn, "a 1 cm move must change the picture")
    }

    @Test func inStereoEachEyeIsWarpedToItsOwnNewPoint() throws {
        let tracker = Self.rawTracker()
        let setup = ViewingSetup()
        let scene = try SceneLoader.load(path: "cube").scene(screen: setup.screen.value)
        let (width, height) = (640, 180)
        let stereo = StereoRenderer(mode: .sideBySide(half: true), scene: scene, setup: setup,
                                    context: RenderContext(threads: 2, producesDepth: true), width: width, height: height)
        let early = PoseSample(timestamp: 1.0, position: Vec3d(0, 0, 0.6), confidence: 1, publishTime: 1.0)
        let record = stereo.renderFrame(from: Scripted(tracker: tracker, sample: early, time: 1.01), index: 0, width: width, height: height)
        let stale = stereo.output.colorArray
        let newer = PoseSample(timestamp: 1.02, position: Vec3d(0.01, 0.005, 0.6), confidence: 1, publishTime: 1.02)
        let latch = LateLatch(threads: 2)
        let late = try #require(latch.latch(record, stereo: stereo, tracker: tracker,
                                            readPose: { tracker.update(sample: newer, at: $0) }, now: 1.03))
        let warped = stereo.output.image()

        // The left half is the left eye's frame warped from its drawn point to its late point, exactly.
        let left = Framebuffer(width: width / 2, height: height)
        let (was, will) = (stereo.eyes(for: try #require(record.view.pose)), stereo.eyes(for: late))
        var from = late, to = late
        from.position = was.left; to.position = will.left
        _ = try Timewarp(threads: 1).warp(stereo.left.framebuffer, from: stereo.left.camera(for: .pose(from)),
                                          to: stereo.left.camera(for: .pose(to)), into: left)
        let leftHalf = (0..<height).flatMap { y in (0..<(width / 2)).map { x in warped.pixels[y * width + x] } }
        #expect(leftHalf == left.colorArray)

        // Against the pair truly drawn at the late pose, the warp is far closer than the stale pair.
        stereo.render(late, width: width, height: height)
        let truth = stereo.output.image()
        let w = ImageComparison(warped, truth), s = ImageComparison(RGBAImage(width: width, height: height, pixels: stale), truth)
        #expect(w.psnr >= s.psnr + 6, "warped \(w), stale \(s)")
        #expect(w.psnr >= 28, "warped \(w)")
    }
}
