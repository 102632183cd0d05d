// The tracker against a head whose eye points are known: MediaPipe's canonical face textured from
// astronaut.png, rendered by our rasterizer as a 60° 640×480 webcam sees it (HeadRig), turning,
// nodding and moving, each frame with its own σ = 3 camera noise.
import Foundation
import HeadRig
import Media
import Testing
import TestSupport
@testable import WebcamTracking

@Suite(.enabled(if: TestData.isAvailable, TestData.skipMessage),
       .enabled(if: WebcamTestSupport.landmarkerAvailable, WebcamTestSupport.landmarkerSkip))
struct GroundTruthHeadTests {
    static let camera = RigCamera()

    /// Each back end's run, made once for all tests that read it.
    static let landmarker = Result { try run(.landmarker) }
    static let blazeface = Result { try run(.blazeface) }
    static let blazefaceSpacing = Result { try run(.blazeface, keypointPose: false) }

    static func run(_ backend: DetectorBackend, keypointPose: Bool = true) throws -> TrackerAccuracy {
        let head = try SyntheticHead.make(models: WebcamTestSupport.models, photo: TestData.path("video/astronaut.png"), camera: camera)
        let pipeline = try WebcamTestSupport.pipeline(backend, model: camera.eyeModel)
        pipeline.useKeypointPose = keypointPose
        let result = try TrackerAccuracy.measure(head: head, camera: camera, pipeline: pipeline, path: HeadMotion.frames(), noise: 3, seed: 7)
        print("ground-truth head, \(backend)\(keypointPose ? "" : " by eye spacing"):\n\(result.table)")
        return result
    }

    @Test("the landmarker keeps the distance through turns, nods and moves (raw, after one calibration)")
    func landmarkerMeetsTheAccuracyGoals() throws {
        let r = try Self.landmarker.get()
        let all = try #require(r.score("all"))
        #expect(all.tracked == all.frames, "every frame tracked")
        #expect(all.distanceP95 <= 0.03 && all.distanceMax <= 0.06, "distance p95 \(all.distanceP95), worst \(all.distanceMax)")
        #expect(all.eyeXYP95 <= 0.01, "eye x/y p95 \(all.eyeXYP95) m")
        #expect(r.stillJitter <= 0.001, "still raw jitter \(r.stillJitter) m")
        let still = try #require(r.score("still"))
        // A still, frontal head reads as frontal: a wrong axis or sign would show 5–10° and more
        // (measured 2.6°, nearly all of it pitch from the network's landmarks).
        #expect(try #require(still.angleP95) < 4 * Double.pi / 180, "still head angle p95 \(still.angleP95 ?? 0)")
    }

    @Test("BlazeFace's eye spacing reads a turned head as farther; its six keypoints' pose mends most of it; the landmarker beats both")
    func blazefaceIsTheBaseline() throws {
        try #require(WebcamTestSupport.mediapipeAvailable, WebcamTestSupport.mediapipeSkip)
        let spacing = try #require(try Self.blazefaceSpacing.get().score("turn"))
        let keypoints = try #require(try Self.blazeface.get().score("turn"))
        let landmarker = try #require(try Self.landmarker.get().score("turn"))
        #expect(spacing.distanceP95 > 0.1, "BlazeFace by eye spacing through a ±35° turn: p95 \(spacing.distanceP95)")
        #expect(keypoints.distanceP95 * 3 < spacing.distanceP95, "keypoint pose p95 \(keypoints.distanceP95)")
        #expect(landmarker.distanceP95 < keypoints.distanceP95)
    }
}

/// The pose model's geometry on exact transforms (no network in the loop).
@Suite struct HeadPoseModelTests {
    /// A MediaPipe-style transform for a head whose eyes sit on the camera's axis at `distance`
    /// metres, turned by `yaw` about its own vertical axis, as the virtual camera would report it.
    static func transform(yaw: Double, distance: Double, model: PinholeEyeModel, width: Double, height: Double) -> [Double] {
        let k = model.focal(forWidth: width) / ((height / 2) / tan(HeadPoseModel.virtualVerticalFOV * .pi / 360))
        // Camera space: rotation about +y by yaw (canonical z out of the face toward the camera).
        let c = cos(yaw), s = sin(yaw)
        let mid = (HeadPoseModel.canonicalRightEye + HeadPoseModel.canonicalLeftEye) / 2
        let rotatedMid = SIMD3(c * mid.x + s * mid.z, mid.y, -s * mid.x + c * mid.z)
        // Eyes' midpoint on the axis at the real distance; the head origin behind it.
        let originReal = SIMD3(0, 0, -distance * 100) - rotatedMid
        let t = SIMD3(originReal.x, originReal.y, originReal.z / k)
        return [c, 0, -s, 0, 0, 1, 0, 0, s, 0, c, 0, t.x, t.y, t.z, 1]
    }

    @Test func eyesOnTheAxisComeBackWhereTheyWere() throws {
        let model = PinholeEyeModel(ipd: HeadPoseModel.canonicalIPD / 100, cameraPosition: SIMD3(0, 0.19, 0))
        for yaw in [-35.0, 0, 20] {
            let m = Self.transform(yaw: yaw * .pi / 180, distance: 0.55, model: model, width: 640, height: 480)
            let pose = try #require(HeadPoseModel.pose(transform: m, width: 640, height: 480, model: model))
            let mid = (pose.right + pose.left) / 2
            #expect(abs(mid.z - 0.55) < 1e-9 && abs(mid.x) < 1e-9 && abs(mid.y - 0.19) < 1e-9, "\(mid)")
            // The person's right eye is on screen +x facing the screen; a turn moves the eyes in depth.
            let span = pose.right - pose.left
            #expect(abs((span * span).sum().squareRoot() - HeadPoseModel.canonicalIPD / 100) < 1e-9)
            #expect(abs(pose.angles.x + yaw * .pi / 180) < 1e-9 || abs(pose.angles.x - yaw * .pi / 180) < 1e-9)
            #expect(yaw == 0 ? abs(span.z) < 1e-9 : abs(span.z) > 0.01)
        }
    }

    @Test func anIPDTwiceTheCanonicalPutsTheHeadTwiceAsFar() throws {
        var model = PinholeEyeModel(cameraPosition: .zero)
        let m = Self.transform(yaw: 0, distance: 0.5, model: model, width: 640, height: 480)
        model.ipd = 2 * HeadPoseModel.canonicalIPD / 100
        let pose = try #require(HeadPoseModel.pose(transform: m, width: 640, height: 480, model: model))
        #expect(abs((pose.right.z + pose.left.z) / 2 - 1.0) < 1e-9)
    }

    @Test func degenerateTransformsAreRefused() {
        let model = PinholeEyeModel()
        #expect(HeadPoseModel.pose(transform: [Double](repeating: 0, count: 16), width: 640, height: 480, model: model) == nil)
        #expect(HeadPoseModel.pose(transform: [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 50, 1], width: 640, height: 480, model: model) == nil)
        #expect(HeadPoseModel.pose(transform: [Double](repeating: .nan, count: 16), width: 640, height: 480, model: model) == nil)
    }
}
