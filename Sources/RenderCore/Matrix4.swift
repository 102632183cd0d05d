import Foundation

/// A 4×4 single-precision matrix, column-major, acting on column vectors (OpenGL style):
/// `m * v` transforms `v`; `columns.3` holds the translation.
public struct Matrix4: Equatable, Sendable, CustomStringConvertible {
    /// The four columns.
    public var c0, c1, c2, c3: Vec4

    /// Builds a matrix from its columns.
    @inlinable public init(_ c0: Vec4, _ c1: Vec4, _ c2: Vec4, _ c3: Vec4) {
        self.c0 = c0; self.c1 = c1; self.c2 = c2; self.c3 = c3
    }

    /// Builds a matrix from 16 numbers in column-major order (as OpenGL and our camera JSON store them).
    /// - Precondition: `m.count == 16` (callers validate input first).
    public init(columnMajor m: [Float]) {
        precondition(m.count == 16, "Matrix4 needs 16 values")
        self.init(Vec4(m[0], m[1], m[2], m[3]), Vec4(m[4], m[5], m[6], m[7]),
                  Vec4(m[8], m[9], m[10], m[11]), Vec4(m[12], m[13], m[14], m[15]))
    }

    /// The identity matrix.
    public static let identity = Matrix4(Vec4(1, 0, 0, 0), Vec4(0, 1, 0, 0), Vec4(0, 0, 1, 0), Vec4(0, 0, 0, 1))

    /// The 16 entries in column-major order.
    public var columnMajor: [Float] {
        [c0.x, c0.y, c0.z, c0.w, c1.x, c1.y, c1.z, c1.w, c2.x, c2.y, c2.z, c2.w, c3.x, c3.y, c3.z, c3.w]
    }

    /// Entry at `row`, `column` (both 0-based).
    @inlinable public subscript(row: Int, column: Int) -> Float {
        get {
            switch column {
            case 0: return c0[row]
            case 1: return c1[row]
            case 2: return c2[row]
            default: return c3[row]
            }
        }
        set {
            switch column {
            case 0: c0[row] = newValue
            case 1: c1[row] = newValue
            case 2: c2[row] = newValue
            default: c3[row] = newValue
            }
        }
    }

    /// Transforms a homogeneous vector.
    @inlinable @inline(__always)
    public static func * (m: Matrix4, v: Vec4) -> Vec4 {
        m.c0 * v.x + m.c1 * v.y + m.c2 * v.z + m.c3 * v.w
    }

    /// Matrix product: `(a * b) * v == a * (b * v)`.
    @inlinable public static func * (a: Matrix4, b: Matrix4) -> Matrix4 {
        Matrix4(a * b.c0, a * b.c1, a * b.c2, a * b.c3)
    }

    /// Transforms a point (w = 1) and returns the homogeneous result.
    @inlinable @inline(__always) public func transform(point p: Vec3) -> Vec4 {
        c0 * p.x + c1 * p.y + c2 * p.z + c3
    }

    /// Transforms a direction (w = 0), dropping w.
    @inlinable @inline(__always) public func transform(direction d: Vec3) -> Vec3 {
        let r = c0 * d.x + c1 * d.y + c2 * d.z
        return Vec3(r.x, r.y, r.z)
    }

    /// The transpose.
    public var transposed: Matrix4 {
        Matrix4(Vec4(c0.x, c1.x, c2.x, c3.x), Vec4(c0.y, c1.y, c2.y, c3.y),
                Vec4(c0.z, c1.z, c2.z, c3.z), Vec4(c0.w, c1.w, c2.w, c3.w))
    }

    /// The inverse (computed in double precision by cofactors), or nil when singular.
    /// Works on stack buffers: no heap allocation (it runs every frame).
    public var inverse: Matrix4? {
        withUnsafeTemporaryAllocation(of: Double.self, capacity: 32) { buf -> Matrix4? in
            let m = buf.baseAddress!, inv = m + 16
            for c in 0..<4 {
                let col = c == 0 ? c0 : c == 1 ? c1 : c == 2 ? c2 : c3
                for r in 0..<4 { m[c * 4 + r] = Double(col[r]) }
            }
            inv[0] = m[5]*m[10]*m[15] - m[5]*m[11]*m[14] - m[9]*m[6]*m[15] + m[9]*m[7]*m[14] + m[13]*m[6]*m[11] - m[13]*m[7]*m[10]
            inv[4] = -m[4]*m[10]*m[15] + m[4]*m[11]*m[14] + m[8]*m[6]*m[15] - m[8]*m[7]*m[14] - m[12]*m[6]*m[11] + m[12]*m[7]*m[10]
            inv[8] = m[4]*m[9]*m[15] - m[4]*m[11]*m[13] - m[8]*m[5]*m[15] + m[8]*m[7]*m[13] + m[12]*m[5]*m[11] - m[12]*m[7]*m[9]
            inv[12] = -m[4]*m[9]*m[14] + m[4]*m[10]*m[13] + m[8]*m[5]*m[14] - m[8]*m[6]*m[13] - m[12]*m[5]*m[10] + m[12]*m[6]*m[9]
            inv[1] = -m[1]*m[10]*m[15] + m[1]*m[11]*m[14] + m[9]*m[2]*m[15] - m[9]*m[3]*m[14] - m[13]*m[2]*m[11] + m[13]*m[3]*m[10]
            inv[5] = m[0]*m[10]*m[15] - m[0]*m[11]*m[14] - m[8]*m[2]*m[15] + m[8]*m[3]*m[14] + m[12]*m[2]*m[11] - m[12]*m[3]*m[10]
            inv[9] = -m[0]*m[9]*m[15] + m[0]*m[11]*m[13] + m[8]*m[1]*m[15] - m[8]*m[3]*m[13] - m[12]*m[1]*m[11] + m[12]*m[3]*m[9]
            inv[13] = m[0]*m[9]*m[14] - m[0]*m[10]*m[13] - m[8]*m[1]*m[14] + m[8]*m[2]*m[13] + m[12]*m[1]*m[10] - m[12]*m[2]*m[9]
            inv[2] = m[1]*m[6]*m[15] - m[1]*m[7]*m[14] - m[5]*m[2]*m[15] + m[5]*m[3]*m[14] + m[13]*m[2]*m[7] - m[13]*m[3]*m[6]
            inv[6] = -m[0]*m[6]*m[15] + m[0]*m[7]*m[14] + m[4]*m[2]*m[15] - m[4]*m[3]*m[14] - m[12]*m[2]*m[7] + m[12]*m[3]*m[6]
            inv[10] = m[0]*m[5]*m[15] - m[0]*m[7]*m[13] - m[4]*m[1]*m[15] + m[4]*m[3]*m[13] + m[12]*m[1]*m[7] - m[12]*m[3]*m[5]
            inv[14] = -m[0]*m[5]*m[14] + m[0]*m[6]*m[13] + m[4]*m[1]*m[14] - m[4]*m[2]*m[13] - m[12]*m[1]*m[6] + m[12]*m[2]*m[5]
            inv[3] = -m[1]*m[6]*m[11] + m[1]*m[7]*m[10] + m[5]*m[2]*m[11] - m[5]*m[3]*m[10] - m[9]*m[2]*m[7] + m[9]*m[3]*m[6]
            inv[7] = m[0]*m[6]*m[11] - m[0]*m[7]*m[10] - m[4]*m[2]*m[11] + m[4]*m[3]*m[10] + m[8]*m[2]*m[7] - m[8]*m[3]*m[6]
            inv[11] = -m[0]*m[5]*m[11] + m[0]*m[7]*m[9] + m[4]*m[1]*m[11] - m[4]*m[3]*m[9] - m[8]*m[1]*m[7] + m[8]*m[3]*m[5]
            inv[15] = m[0]*m[5]*m[10] - m[0]*m[6]*m[9] - m[4]*m[1]*m[10] + m[4]*m[2]*m[9] + m[8]*m[1]*m[6] - m[8]*m[2]*m[5]
                let det = m[0]*inv[0] + m[1]*inv[4] + m[2]*inv[8] + m[3]*inv[12]
                guard det != 0, det.isFinite else { return nil }
                func col(_ c: Int) -> Vec4 {
                    Vec4(Float(inv[c * 4] / det), Float(inv[c * 4 + 1] / det), Float(inv[c * 4 + 2] / det), Float(inv[c * 4 + 3] / det))
                }
                return Matrix4(col(0), col(1), col(2), col(3))
        }
    }

    /// Translation by `t`.
    public static func translation(_ t: Vec3) -> Matrix4 {
        var m = Matrix4.identity
        m.c3 = Vec4(t.x, t.y, t.z, 1)
        return m
    }

    /// Uniform or per-axis scale.
    public static func scale(_ s: Vec3) -> Matrix4 {
        Matrix4(Vec4(s.x, 0, 0, 0), Vec4(0, s.y, 0, 0), Vec4(0, 0, s.z, 0), Vec4(0, 0, 0, 1))
    }

    /// Rotation by `angle` radians about the unit `axis` (right-handed).
    public static func rotation(angle: Float, axis: Vec3) -> Matrix4 {
        Quaternion(angle: angle, axis: axis).matrix
    }

    /// `glFrustum(l, r, b, t, n, f)`: the general (possibly asymmetric) perspective projection.
    /// `l, r, b, t` are the near-plane extents in camera space; `n, f` > 0 are plane distances.
    public static func frustum(left l: Float, right r: Float, bottom b: Float, top t: Float,
                               near n: Float, far f: Float) -> Matrix4 {
        Matrix4(Vec4(2 * n / (r - l), 0, 0, 0),
                Vec4(0, 2 * n / (t - b), 0, 0),
                Vec4((r + l) / (r - l), (t + b) / (t - b), -(f + n) / (f - n), -1),
                Vec4(0, 0, -2 * f * n / (f - n), 0))
    }

    /// Symmetric perspective projection (`gluPerspective`), `fovY` in radians.
    public static func perspective(fovY: Float, aspect: Float, near: Float, far: Float) -> Matrix4 {
        let t = near * tanf(fovY / 2)
        return frustum(left: -t * aspect, right: t * aspect, bottom: -t, top: t, near: near, far: far)
    }

    /// A view matrix looking from `eye` toward `target` with approximate `up` (`gluLookAt`).
    public static func lookAt(eye: Vec3, target: Vec3, up: Vec3) -> Matrix4 {
        let f = (target - eye).normalized
        let s = f.cross(up).normalized
        let u = s.cross(f)
        return Matrix4(Vec4(s.x, u.x, -f.x, 0), Vec4(s.y, u.y, -f.y, 0), Vec4(s.z, u.z, -f.z, 0),
                       Vec4(-s.dot(eye), -u.dot(eye), f.dot(eye), 1))
    }

    public var description: String { "Matrix4(\(columnMajor))" }
}

