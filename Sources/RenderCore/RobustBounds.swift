// RenderCore — RobustBounds: the box a capture is fitted by, ignoring stray splats far outside it.

/// Bounds that ignore outliers: per axis the `p`-th and (100 − p)-th percentiles of the
/// positions (from an evenly spaced sample of at most 200,000 points).
public enum RobustBounds {
    public static func of(_ positions: [Vec3], percentile p: Double = 2) -> Bounds {
        guard !positions.isEmpty else { return .empty }
        let step = max(1, positions.count / 200_000)
        var xs: [Float] = [], ys: [Float] = [], zs: [Float] = []
        var i = 0
        while i < positions.count {
            let v = positions[i]
            if v.x.isFinite && v.y.isFinite && v.z.isFinite { xs.append(v.x); ys.append(v.y); zs.append(v.z) }
            i += step
        }
        guard !xs.isEmpty else { return .empty }
        xs.sort(); ys.sort(); zs.sort()
        func at(_ a: [Float], _ q: Double) -> Float { a[min(a.count - 1, max(0, Int((Double(a.count - 1) * q / 100).rounded())))] }
        return Bounds(min: Vec3(at(xs, p), at(ys, p), at(zs, p)), max: Vec3(at(xs, 100 - p), at(ys, 100 - p), at(zs, 100 - p)))
    }
}
