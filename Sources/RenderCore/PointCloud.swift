// RenderCore — PointCloud: coloured points (vertex-only PLY files), structure of arrays.

/// A set of coloured points in the file's own frame, as parallel arrays.
public struct PointCloud: Sendable {
    /// Point positions (model space, the file's units).
    public var positions: [Vec3]
    /// RGBA colours, 0…1 sRGB-encoded; one per position (white when the file has none).
    public var colors: [Vec4]

    /// Creates a cloud; `colors` empty means all white. - Precondition: counts agree when given.
    public init(positions: [Vec3], colors: [Vec4] = []) {
        precondition(colors.isEmpty || colors.count == positions.count, "PointCloud arrays disagree in length")
        self.positions = positions
        self.colors = colors.isEmpty ? [Vec4](repeating: Vec4(1, 1, 1, 1), count: positions.count) : colors
    }

    /// Number of points.
    public var count: Int { positions.count }

    /// Axis-aligned bounds of the positions.
    public var bounds: Bounds { Bounds(points: positions) }
}
