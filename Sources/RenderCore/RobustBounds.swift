// RenderCore — RobustBounds: the box a capture is fitted by, ignoring stray splats far outside it.

/// Bounds that ignore outliers: per axis the `p`-th and (100 − p)-th percentiles of the
/// positions (from an evenly spaced sample of at most 200,000 points).
public enum RobustBounds {
    public static func of(_ positions: [Vec3], percentile p: Double = 2) -> Bounds {
        guard !positions.isEmpty else { return .empty }
        let step = sampleStep(count: positions.count)
        var sample: [Vec3] = []
        sample.reserveCapacity(positions.count / step + 1)
        var i = 0
        while i < positions.count { sample.append(positions[i]); i += step }
        return of(sample: sample, percentile: p)
    }

    /// The spacing of the sample `of` takes from `count` positions: every `sampleStep`-th one,
    /// starting with the first (a caller streaming the positions keeps those whose index is a
    /// multiple of it and gets the same box from `of(sample:)`).
    public static func sampleStep(count: Int) -> Int { max(1, count / 200_000) }

    /// The box of an already taken sample (every position kept; non-finite ones skipped).
    public static func of(sample: [Vec3], percentile p: Double = 2) -> Bounds {
        var xs: [Float] = [], ys: [Float] = [], zs: [Float] = []
        for v in sample where v.x.isFinite && v.y.isFinite && v.z.isFinite { xs.append(v.x); ys.append(v.y); zs.append(v.z) }
        guard !xs.isEmpty else { return .empty }
        xs.sort(); ys.sort(); zs.sort()
        func at(_ a: [Float], _ q: Double) -> Float { a[min(a.count - 1, max(0, Int((Double(a.count - 1) * q / 100).rounded())))] }
        return Bounds(min: Vec3(at(xs, p), at(ys, p), at(zs, p)), max: Vec3(at(xs, 100 - p), at(ys, 100 - p), at(zs, 100 - p)))
    }
}
