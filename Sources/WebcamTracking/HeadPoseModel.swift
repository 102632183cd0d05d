// HeadPoseModel — MediaPipe's head transform → both eyes and the head's angles in screen space.
import Foundation
import HeadTracking

/// Places the viewer's eyes by the head's 6-DoF pose (`FaceLandmarks.transform`).
///
/// The transform maps MediaPipe's canonical face (centimetres; x towards the image's right when
/// the face looks at the camera, y up, z out of the face) into the camera space of a virtual
/// camera with a 63° vertical field of view over the image height (OpenGL axes: x right, y up,
/// looking down −z). For the real camera (focal length f pixels, `PinholeEyeModel`) the same
/// image puts the head's origin at the same x, y and at depth z·f/f_virtual; a viewer whose IPD
/// is σ times the canonical face's sits σ times as far, with σ-times offsets. Camera space →
/// screen space mirrors x and z (the camera looks at the viewer) and adds the camera position.
///
/// Eye point: the midpoint of each eye's two corners in the canonical face (vertices 33 + 133 and
/// 362 + 263), which lies about 1 cm behind the cornea — near the eyeball's centre, the point the
/// eye sees from as it turns.
public enum HeadPoseModel {
    /// The person's right and left eye points in the canonical face (centimetres).
    public static let canonicalRightEye = SIMD3<Double>(-3.1511455, 2.6246179, 3.4656631)
    public static let canonicalLeftEye = SIMD3<Double>(3.1511455, 2.6246179, 3.4656631)
    /// The canonical face's IPD between those points (centimetres).
    public static var canonicalIPD: Double { canonicalLeftEye.x - canonicalRightEye.x }
    /// MediaPipe's virtual camera: vertical field of view (degrees).
    public static let virtualVerticalFOV = 63.0

    /// The head's pose in screen space.
    public struct Pose: Sendable, Equatable {
        /// The person's right and left eye points (metres, screen space).
        public var right: Vec3d, left: Vec3d
        /// Yaw, pitch, roll in radians: yaw about screen +y (positive: the face turns to the
        /// viewer's left, screen −x), pitch about +x (positive: looking up), roll about +z
        /// (positive: counter-clockwise as the viewer sees the screen). All 0 facing the screen.
        public var angles: Vec3d
        /// The head's rotation as a screen-space matrix (rows), identity facing the screen.
        public var rotation: [[Double]]
    }

    /// The pose for a `width`×`height` frame through `model` (focal length, IPD, camera
    /// position): with `face` and the frame's `landmarks`, the canonical face refitted through the
    /// real camera (`HeadPoseFit`, started from the transform); else the transform alone, its depth
    /// rescaled to the real focal length and its rotation turned back by the line of sight.
    /// nil for a degenerate transform.
    public static func pose(transform m: [Double], width: Double, height: Double, model: PinholeEyeModel,
                            landmarks: [SIMD3<Double>]? = nil, face: CanonicalFace? = nil) -> Pose? {
        guard m.count == 16, m.allSatisfy(\.isFinite), width > 0, height > 0 else { return nil }
        // Column-major: element (row r, column c) is m[c * 4 + r].
        var seen = (0..<3).map { row in (0..<3).map { col in m[col * 4 + row] } }
        let scale = cbrt(determinant(seen))
        guard scale.isFinite, scale > 1e-6 else { return nil }
        seen = seen.map { $0.map { $0 / scale } }
        let t = SIMD3(m[12], m[13], m[14])
        guard t.z < -1e-3 else { return nil }   // the head is in front of the camera
        let f = model.focal(forWidth: width)
        let k = f / ((height / 2) / tan(virtualVerticalFOV * .pi / 360))
        let sigma = model.ipd * 100 / canonicalIPD
        // The same image from the real camera puts the head's origin at the same x, y and k× the
        // depth; a transform with a uniform scale s drew a face s× the canonical one: the scene
        // scaled by σ/s has the viewer's face.
        let origin = SIMD3(t.x, t.y, t.z * k) * (sigma / scale)
        let mid = (canonicalRightEye + canonicalLeftEye) / 2
        let midCam: SIMD3<Double>, r: [[Double]]
        if let face, let landmarks,
           let fit = HeadPoseFit.fit(face: face, scale: sigma, landmarks: landmarks, focal: f, width: width, height: height,
                                     rotation: seen, translation: origin) {
            r = fit.rotation
            midCam = fit.translation + rotate(r, mid) * sigma
        } else {
            // MediaPipe's rotation is the face's as seen along the line of sight to it: a head off
            // the camera's axis that faces along the axis reads as turned by the angle between the
            // axis and the line to the eyes (measured: 5° for eyes 5 cm below the axis at 0.55 m).
            // The eye midpoint is placed by the transform as given (it agrees with the image); the
            // corrected rotation orients the eyes about it and gives the angles.
            midCam = origin + rotate(seen, mid) * sigma
            r = multiply(lineOfSight(midCam), seen)
        }
        return screenPose(eyeMidpoint: midCam, rotation: r, sigma: sigma, model: model)
    }

    /// The eyes about `midCam` (camera space, centimetres) turned by `r`, and the angles, in screen space.
    static func screenPose(eyeMidpoint midCam: SIMD3<Double>, rotation r: [[Double]], sigma: Double, model: PinholeEyeModel) -> Pose {
        let half = (canonicalLeftEye - canonicalRightEye) / 2
        func place(_ sign: Double) -> Vec3d {
            let cam = (midCam + rotate(r, half) * (sign * sigma)) / 100   // metres, camera space
            return Vec3d(-cam.x, cam.y, -cam.z) + model.cameraPosition
        }
        // Screen-space rotation: D·R·D with D = diag(−1, 1, −1).
        let d = [-1.0, 1, -1]
        let q = (0..<3).map { row in (0..<3).map { col in d[row] * r[row][col] * d[col] } }
        let yaw = atan2(q[0][2], q[2][2]), pitch = asin(max(-1, min(1, -q[1][2]))), roll = atan2(q[1][0], q[1][1])
        return Pose(right: place(-1), left: place(1), angles: Vec3d(yaw, pitch, roll), rotation: q)
    }

    /// BlazeFace's six keypoints (pixels: the person's right eye, left eye, nose tip, mouth
    /// centre, right and left tragion) and these points on the canonical face (centimetres), with
    /// the weight each gets in the fit (the ear points are the least sure).
    static let blazeFacePoints: [(model: SIMD3<Double>, weight: Double)] = [
        (canonicalRightEye, 1), (canonicalLeftEye, 1), (SIMD3(0, -0.463, 7.587), 1), (SIMD3(0, -4.268, 5.312), 0.5),
        (SIMD3(-7.664, 0.673, -2.436), 0.5), (SIMD3(7.664, 0.673, -2.436), 0.5),
    ]

    /// The pose from BlazeFace's six keypoints: the canonical face fitted to them through the
    /// real camera, started facing the camera at the eye spacing's distance. nil without six
    /// keypoints or when the fit fails.
    public static func pose(blazeFaceKeypoints k: [SIMD2<Double>], width: Double, height: Double, model: PinholeEyeModel) -> Pose? {
        guard k.count == 6, let start = model.eyes(personRight: k[0], personLeft: k[1], width: width, height: height) else { return nil }
        let sigma = model.ipd * 100 / canonicalIPD
        let c = (start.centre - model.cameraPosition) * 100
        let mid = (canonicalRightEye + canonicalLeftEye) / 2
        let t0 = SIMD3(-c.x, c.y, -c.z) - mid * sigma
        let points = zip(blazeFacePoints, k).map { HeadPoseFit.Correspondence(model: $0.model, image: $1, weight: $0.weight) }
        guard let fit = HeadPoseFit.fit(points, scale: sigma, focal: model.focal(forWidth: width), width: width, height: height,
                                        rotation: [[1, 0, 0], [0, 1, 0], [0, 0, 1]], translation: t0, iterations: 12) else { return nil }
        return screenPose(eyeMidpoint: fit.translation + rotate(fit.rotation, mid) * sigma, rotation: fit.rotation, sigma: sigma, model: model)
    }

    static func rotate(_ m: [[Double]], _ e: SIMD3<Double>) -> SIMD3<Double> {
        SIMD3(m[0][0] * e.x + m[0][1] * e.y + m[0][2] * e.z, m[1][0] * e.x + m[1][1] * e.y + m[1][2] * e.z,
              m[2][0] * e.x + m[2][1] * e.y + m[2][2] * e.z)
    }

    /// The rotation taking the camera's axis (0, 0, −1) to the direction of `p` (camera space).
    static func lineOfSight(_ p: SIMD3<Double>) -> [[Double]] {
        let v = p / (p * p).sum().squareRoot()
        let a = SIMD3(0.0, 0.0, -1.0)
        let axis = SIMD3(a.y * v.z - a.z * v.y, a.z * v.x - a.x * v.z, a.x * v.y - a.y * v.x)   // a × v
        let s = (axis * axis).sum().squareRoot(), c = (a * v).sum()
        guard s > 1e-12 else { return [[1, 0, 0], [0, 1, 0], [0, 0, 1]] }
        let u = axis / s
        // Rodrigues: R = cI + s[u]x + (1 − c)uuᵀ
        return [[c + (1 - c) * u.x * u.x, (1 - c) * u.x * u.y - s * u.z, (1 - c) * u.x * u.z + s * u.y],
                [(1 - c) * u.y * u.x + s * u.z, c + (1 - c) * u.y * u.y, (1 - c) * u.y * u.z - s * u.x],
                [(1 - c) * u.z * u.x - s * u.y, (1 - c) * u.z * u.y + s * u.x, c + (1 - c) * u.z * u.z]]
    }

    static func multiply(_ a: [[Double]], _ b: [[Double]]) -> [[Double]] {
        (0..<3).map { i in (0..<3).map { j in (0..<3).reduce(0) { $0 + a[i][$1] * b[$1][j] } } }
    }

    static func determinant(_ a: [[Double]]) -> Double {
        a[0][0] * (a[1][1] * a[2][2] - a[1][2] * a[2][1]) - a[0][1] * (a[1][0] * a[2][2] - a[1][2] * a[2][0])
            + a[0][2] * (a[1][0] * a[2][1] - a[1][1] * a[2][0])
    }
}

