// HeadPlacement — where the rendered head is and where its eyes truly are.
import Foundation
import RenderCore
import WebcamTracking

/// A head's pose in screen space (metres; x right, y up, +z toward the viewer): the canonical
/// face's origin at `position`, turned by yaw, pitch and roll (radians, the conventions of
/// `HeadPoseModel.Pose.angles`: rotation = Ry(yaw)·Rx(pitch)·Rz(roll), all 0 facing the screen).
public struct HeadPlacement: Sendable, Equatable {
    public var position: SIMD3<Double>
    public var yaw: Double, pitch: Double, roll: Double

    public init(position: SIMD3<Double>, yaw: Double = 0, pitch: Double = 0, roll: Double = 0) {
        self.position = position; self.yaw = yaw; self.pitch = pitch; self.roll = roll
    }

    /// The rotation Ry(yaw)·Rx(pitch)·Rz(roll) as rows.
    public var rotation: [[Double]] {
        let (cy, sy, cp, sp, cr, sr) = (cos(yaw), sin(yaw), cos(pitch), sin(pitch), cos(roll), sin(roll))
        let ry = [[cy, 0, sy], [0, 1, 0], [-sy, 0, cy]]
        let rx = [[1, 0, 0], [0, cp, -sp], [0, sp, cp]]
        let rz = [[cr, -sr, 0], [sr, cr, 0], [0, 0, 1]]
        return Self.multiply(Self.multiply(ry, rx), rz)
    }

    /// A canonical-face point (centimetres, head frame) in screen space (metres): the head frame
    /// facing the screen is the screen frame with x and z mirrored (D = diag(−1, 1, −1)).
    public func place(_ p: SIMD3<Double>) -> SIMD3<Double> {
        let d = SIMD3(-p.x, p.y, -p.z) / 100
        let r = rotation
        return position + SIMD3(r[0][0] * d.x + r[0][1] * d.y + r[0][2] * d.z,
                                r[1][0] * d.x + r[1][1] * d.y + r[1][2] * d.z,
                                r[2][0] * d.x + r[2][1] * d.y + r[2][2] * d.z)
    }

    /// The true eye points (the canonical face's, `HeadPoseModel.canonicalRightEye`/`LeftEye`).
    public var rightEye: SIMD3<Double> { place(HeadPoseModel.canonicalRightEye) }
    public var leftEye: SIMD3<Double> { place(HeadPoseModel.canonicalLeftEye) }
    public var eyeMidpoint: SIMD3<Double> { (rightEye + leftEye) / 2 }

    /// The model matrix taking canonical-face centimetres to screen-space metres.
    public var modelMatrix: Matrix4 {
        let r = rotation.map { $0.map(Float.init) }
        let rot = Matrix4(Vec4(r[0][0], r[1][0], r[2][0], 0), Vec4(r[0][1], r[1][1], r[2][1], 0),
                          Vec4(r[0][2], r[1][2], r[2][2], 0), Vec4(0, 0, 0, 1))
        return Matrix4.translation(Vec3(Float(position.x), Float(position.y), Float(position.z))) * rot
            * Matrix4.scale(Vec3(-0.01, 0.01, -0.01))
    }

    static func multiply(_ a: [[Double]], _ b: [[Double]]) -> [[Double]] {
        (0..<3).map { i in (0..<3).map { j in (0..<3).reduce(0) { $0 + a[i][$1] * b[$1][j] } } }
    }
}
