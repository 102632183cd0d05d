// PinholeEyeModel — two eye centres in a camera image → the viewer's eyes in screen space.
import Foundation
import HeadTracking

/// The camera and viewer constants that turn pixels into metres.
///
/// Model: a pinhole camera in the screen plane at `cameraPosition` (metres, screen space),
/// looking straight out of the screen (+z) at the viewer, with focal length `focalPixels`
/// for an image `imageWidth` pixels wide (principal point at the image centre). Its image is
/// mirrored relative to screen space: the camera looks the other way than the viewer, so the
/// image's +u (right) is screen −x and the image's +v (down) is screen −y.
/// Distance: z = f · IPD / d, with d the distance between the eye centres in pixels.
public struct PinholeEyeModel: Sendable, Equatable {
    /// Focal length in pixels at `imageWidth`.
    public var focalPixels: Double
    /// The image width the focal length belongs to (pixels); other widths scale it.
    public var imageWidth: Double
    /// The viewer's inter-pupillary distance in metres (average adult 0.063; calibrate per user).
    public var ipd: Double
    /// The camera's optical centre in screen space (metres); default: centred 2 cm above the
    /// top edge of the screen (`TrackingGeometry.screen`).
    public var cameraPosition: Vec3d

    /// A model from the camera's horizontal field of view (degrees) at `imageWidth` pixels.
    public init(horizontalFOVDegrees: Double = 60, imageWidth: Double = 640, ipd: Double = 0.063,
                cameraPosition: Vec3d = Vec3d(0, 0.19, 0)) {
        self.init(focalPixels: Self.focal(horizontalFOVDegrees: horizontalFOVDegrees, imageWidth: imageWidth),
                  imageWidth: imageWidth, ipd: ipd, cameraPosition: cameraPosition)
    }

    /// A model from a calibrated focal length (pixels at `imageWidth`).
    public init(focalPixels: Double, imageWidth: Double = 640, ipd: Double = 0.063, cameraPosition: Vec3d = Vec3d(0, 0.19, 0)) {
        self.focalPixels = focalPixels; self.imageWidth = imageWidth; self.ipd = ipd; self.cameraPosition = cameraPosition
    }

    /// f = (w / 2) / tan(fov / 2).
    public static func focal(horizontalFOVDegrees fov: Double, imageWidth: Double) -> Double {
        imageWidth / 2 / tan(fov * .pi / 360)
    }

    /// The focal length for an image `width` pixels wide.
    public func focal(forWidth width: Double) -> Double { focalPixels * width / imageWidth }

    /// The viewer's eyes for eye centres at pixels `personRight` (the person's right eye: the
    /// image's left one) and `personLeft` in a `width`×`height` image. Returns nil for
    /// degenerate input (coincident eyes, non-finite numbers).
    public func eyes(personRight r: SIMD2<Double>, personLeft l: SIMD2<Double>, width: Double, height: Double) -> EyePoints? {
        let d = simd_length(l - r)
        guard d.isFinite, d > 0.5, width > 0, height > 0 else { return nil }
        let f = focal(forWidth: width)
        let z = f * ipd / d
        let c = SIMD2(width / 2, height / 2)
        func toScreen(_ p: SIMD2<Double>) -> Vec3d {
            // Camera coordinates (x right, y down in the image) → screen space (mirrored x, y up).
            Vec3d(-(p.x - c.x) * z / f, -(p.y - c.y) * z / f, z) + cameraPosition
        }
        let right = toScreen(r), left = toScreen(l)
        let roll = atan2(right.y - left.y, right.x - left.x)   // 0 when level; counter-clockwise as the viewer sees it
        return EyePoints(centre: toScreen((r + l) / 2), right: right, left: left, distance: z, eyeDistancePixels: d, roll: roll)
    }

    /// The IPD (metres) that puts eyes `d` pixels apart at distance `z` metres, for calibration.
    public func ipd(eyeDistancePixels d: Double, distance z: Double, width: Double) -> Double { d * z / focal(forWidth: width) }
    /// The focal length (pixels at `imageWidth`) that puts eyes `d` pixels apart at `z` metres.
    public func focalPixels(eyeDistancePixels d: Double, distance z: Double, width: Double) -> Double { d * z / ipd * imageWidth / width }
}

/// The viewer's eyes as the pinhole model places them (metres, screen space).
public struct EyePoints: Sendable, Equatable {
    /// The midpoint between the eyes: the head pose's eye point.
    public var centre: Vec3d
    /// The person's right eye (the screen's +x side: the viewer faces the screen) and left eye.
    public var right: Vec3d, left: Vec3d
    /// Distance from the camera along its axis (metres).
    public var distance: Double
    /// The eye centres' distance in the image (pixels).
    public var eyeDistancePixels: Double
    /// Head roll in radians: the angle of the line from the left to the right eye to the screen's
    /// x axis, counter-clockwise as the viewer sees the screen (0 when level).
    public var roll: Double
}

@inline(__always) func simd_length(_ v: SIMD2<Double>) -> Double { (v * v).sum().squareRoot() }
