// RenderCore — the shared vocabulary of SplatFrame.
//
// Job: vectors and 4×4 matrices, quaternions, the off-axis (Kooima) frustum, cameras,
// physical screen geometry, and the data every stage passes along: `Framebuffer`,
// `Texture`, `TriangleMesh`, `SplatCloud` (structure of arrays); Morton order and a seeded
// generator for the stages that sort points in space or draw reproducible random numbers; the
// spherical-harmonic colour basis splats use.
// Contract: no I/O, no threads, no dependencies. Units are metres and radians.
// Screen space: the physical screen is a W×H rectangle centred at the origin in z = 0,
// x right, y up, +z toward the viewer. Camera space is OpenGL's (looks down −Z, +Y up,
// clip z in [−1, 1]); matrices are column-major and act on column vectors.

/// 3-component single-precision vector used for positions, directions and colours.
public typealias Vec3 = SIMD3<Float>
/// 4-component single-precision vector (homogeneous points, RGBA, quaternions as w,x,y,z).
public typealias Vec4 = SIMD4<Float>
/// 2-component single-precision vector (texture coordinates, pixel positions).
public typealias Vec2 = SIMD2<Float>

extension SIMD3 where Scalar == Float {
    /// Dot product.
    @inlinable @inline(__always) public func dot(_ o: Self) -> Float { (self * o).sum() }
    /// Cross product (right-handed).
    @inlinable @inline(__always) public func cross(_ o: Self) -> Self {
        Self(y * o.z - z * o.y, z * o.x - x * o.z, x * o.y - y * o.x)
    }
    /// Euclidean length.
    @inlinable @inline(__always) public var length: Float { dot(self).squareRoot() }
    /// Unit vector in the same direction, or zero for a zero vector.
    @inlinable @inline(__always) public var normalized: Self {
        let l = length
        return l > 0 ? self / l : .zero
    }
}
