import Foundation

/// A rotation quaternion stored as (w, x, y, z) — the order 3DGS PLY files use for `rot_0..3`.
public struct Quaternion: Equatable, Sendable {
    /// Scalar part.
    public var w: Float
    /// Vector part.
    public var x, y, z: Float

    /// Creates a quaternion from its components (not normalised).
    @inlinable public init(w: Float, x: Float, y: Float, z: Float) {
        self.w = w; self.x = x; self.y = y; self.z = z
    }

    /// Rotation by `angle` radians about `axis` (normalised here).
    public init(angle: Float, axis: Vec3) {
        let a = axis.normalized
        let s = sinf(angle / 2)
        self.init(w: cosf(angle / 2), x: a.x * s, y: a.y * s, z: a.z * s)
    }

    /// The identity rotation.
    public static let identity = Quaternion(w: 1, x: 0, y: 0, z: 0)

    /// Unit-length copy; the identity for a zero quaternion.
    public var normalized: Quaternion {
        let n = (w * w + x * x + y * y + z * z).squareRoot()
        guard n > 0, n.isFinite else { return .identity }
        return Quaternion(w: w / n, x: x / n, y: y / n, z: z / n)
    }

    /// Hamilton product: `(a * b)` rotates by `b` first, then `a`.
    public static func * (a: Quaternion, b: Quaternion) -> Quaternion {
        Quaternion(w: a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z,
                   x: a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
                   y: a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
                   z: a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w)
    }

    /// The 3×3 rotation as columns (for a unit quaternion).
    @inlinable public var rotationColumns: (Vec3, Vec3, Vec3) {
        let xx = x * x, yy = y * y, zz = z * z, xy = x * y, xz = x * z, yz = y * z
        let wx = w * x, wy = w * y, wz = w * z
        return (Vec3(1 - 2 * (yy + zz), 2 * (xy + wz), 2 * (xz - wy)),
                Vec3(2 * (xy - wz), 1 - 2 * (xx + zz), 2 * (yz + wx)),
                Vec3(2 * (xz + wy), 2 * (yz - wx), 1 - 2 * (xx + yy)))
    }

    /// The rotation as a 4×4 matrix.
    public var matrix: Matrix4 {
        let (a, b, c) = normalized.rotationColumns
        return Matrix4(Vec4(a.x, a.y, a.z, 0), Vec4(b.x, b.y, b.z, 0), Vec4(c.x, c.y, c.z, 0), Vec4(0, 0, 0, 1))
    }

    /// Rotates a vector.
    public func rotate(_ v: Vec3) -> Vec3 {
        let (a, b, c) = normalized.rotationColumns
        return a * v.x + b * v.y + c * v.z
    }
}
