// PoseLog — a recorded head track in memory, whatever file it came from.

/// The file formats HeadTracking reads.
public enum PoseLogFormat: String, Sendable, Equatable, CaseIterable {
    /// Ours: CSV with header `t,x,y,z[,yaw,pitch,roll][,confidence]` — seconds, metres in
    /// screen space, degrees, 0…1; `#` comment lines.
    case splatframe
    /// TUM RGB-D trajectories: whitespace-separated `t tx ty tz qx qy qz qw` (seconds, metres,
    /// unit quaternion) in the capture system's frame; `#` comments. Rotation is not imported.
    case tum
    /// opentrack's "tracking data logging" CSV: header `dt,rawTX,…,rawRoll,correctedTX,…,
    /// filteredTX,…,mappedTX,…,mappedRoll`; `dt` is seconds since the previous row,
    /// translations in centimetres, rotations in degrees. The `raw` group is imported
    /// (before opentrack's centring and filter) and converted with `OpentrackMapping.logDefault`.
    case opentrackCSV = "opentrack"
}

/// A head track: samples in time order, in metres (screen space once mapped/recentred).
public struct PoseLog: Sendable, Equatable {
    /// The samples, sorted by timestamp (seconds, starting wherever the file starts).
    public var samples: [PoseSample]
    /// The format the log was read from.
    public var format: PoseLogFormat
    /// Lines skipped in lenient mode (0 in strict mode).
    public var skippedLines: Int
    /// True when the file carried rotations.
    public var hasRotation: Bool
    /// True when the file carried a confidence column.
    public var hasConfidence: Bool

    /// Creates a log from samples (sorted by the caller).
    public init(samples: [PoseSample], format: PoseLogFormat = .splatframe, skippedLines: Int = 0,
                hasRotation: Bool = false, hasConfidence: Bool = false) {
        self.samples = samples; self.format = format; self.skippedLines = skippedLines
        self.hasRotation = hasRotation; self.hasConfidence = hasConfidence
    }

    /// Seconds from the first to the last sample (0 for fewer than two samples).
    public var duration: Double {
        guard let a = samples.first, let b = samples.last else { return 0 }
        return b.timestamp - a.timestamp
    }

    /// Mean sample rate in Hz (0 for fewer than two samples).
    public var meanRate: Double { duration > 0 ? Double(samples.count - 1) / duration : 0 }

    /// The same track with timestamps shifted so the first sample is at t = 0.
    public func startingAtZero() -> PoseLog {
        guard let t0 = samples.first?.timestamp else { return self }
        var copy = self
        copy.samples = samples.map { var s = $0; s.timestamp -= t0; s.publishTime -= t0; return s }
        return copy
    }

    /// Per-axis median of the positions (metres), nil for an empty log.
    public var medianPosition: Vec3d? {
        guard !samples.isEmpty else { return nil }
        func median(_ k: Int) -> Double {
            let v = samples.map { $0.position[k] }.sorted()
            let n = v.count
            return n % 2 == 1 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2])
        }
        return Vec3d(median(0), median(1), median(2))
    }

    /// Per-axis minimum and maximum positions (metres), nil for an empty log.
    public var bounds: (min: Vec3d, max: Vec3d)? {
        guard let first = samples.first?.position else { return nil }
        var lo = first, hi = first
        for s in samples { lo = pointwiseMin(lo, s.position); hi = pointwiseMax(hi, s.position) }
        return (lo, hi)
    }
}
