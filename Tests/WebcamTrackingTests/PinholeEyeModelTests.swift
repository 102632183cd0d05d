// The pinhole eye model: signs for a mirrored camera, distance from the eye spacing, calibration.
import Foundation
import Testing
import HeadTracking
@testable import WebcamTracking

@Suite("pinhole eye model")
struct PinholeEyeModelTests {
    static let model = PinholeEyeModel(horizontalFOVDegrees: 60, imageWidth: 640, ipd: 0.063, cameraPosition: Vec3d(0, 0.19, 0))
    static func eyes(_ cx: Double, _ cy: Double, spacing: Double, tilt: Double = 0) -> EyePoints {
        model.eyes(personRight: SIMD2(cx - spacing / 2, cy - tilt / 2), personLeft: SIMD2(cx + spacing / 2, cy + tilt / 2),
                   width: 640, height: 480)!
    }

    @Test func centredFaceSitsOnTheCameraAxisAtTheDistanceTheSpacingSays() {
        let f = 320 / tan(30 * Double.pi / 180)
        let e = Self.eyes(320, 240, spacing: 60)
        #expect(abs(e.distance - f * 0.063 / 60) < 1e-9)
        #expect(abs(e.centre.x) < 1e-12 && abs(e.centre.y - 0.19) < 1e-12 && abs(e.centre.z - e.distance) < 1e-12)
        #expect(abs(e.right.x - e.left.x - 0.063) < 1e-9, "the person's right eye is on the screen's +x side, IPD apart")
        #expect(abs(e.roll) < 1e-12)
    }

    @Test func imageRightIsScreenLeftAndImageDownIsScreenDown() {
        let base = Self.eyes(320, 240, spacing: 60)
        let right = Self.eyes(400, 240, spacing: 60)
        let down = Self.eyes(320, 300, spacing: 60)
        #expect(right.centre.x < base.centre.x, "a face moving right in the (unmirrored) image is the viewer moving to screen −x")
        #expect(abs(right.centre.x - base.centre.x + 80 * base.distance / Self.model.focalPixels) < 1e-9)
        #expect(down.centre.y < base.centre.y && abs(down.centre.z - base.centre.z) < 1e-12)
    }

    @Test func scalingTheFaceBySDividesTheDistanceByS() {
        for s in [0.5, 0.8, 1.25, 2.0] {
            let a = Self.eyes(320, 240, spacing: 60), b = Self.eyes(320, 240, spacing: 60 * s)
            #expect(abs(b.distance / a.distance - 1 / s) < 1e-9)
        }
    }

    @Test func widthChangesScaleTheFocalLength() {
        let small = Self.model.eyes(personRight: SIMD2(145, 120), personLeft: SIMD2(175, 120), width: 320, height: 240)!
        #expect(abs(small.distance - Self.eyes(320, 240, spacing: 60).distance) < 1e-9)
    }

    @Test func calibrationInvertsTheModel() {
        let e = Self.eyes(320, 240, spacing: 58)
        #expect(abs(Self.model.ipd(eyeDistancePixels: 58, distance: e.distance, width: 640) - 0.063) < 1e-12)
        #expect(abs(Self.model.focalPixels(eyeDistancePixels: 58, distance: e.distance, width: 640) - Self.model.focalPixels) < 1e-9)
        #expect(Self.model.eyes(personRight: SIMD2(1, 1), personLeft: SIMD2(1, 1), width: 640, height: 480) == nil)
        #expect(Self.model.eyes(personRight: SIMD2(.nan, 1), personLeft: SIMD2(1, 1), width: 640, height: 480) == nil)
    }

    @Test func rollFollowsTheEyeLine() {
        // Person's left eye lower in the image (larger v) → lower on screen → right eye higher: positive roll.
        let e = Self.eyes(320, 240, spacing: 60, tilt: 20)
        #expect(e.roll > 0.3 && e.roll < 0.33)
    }
}
