/// Summary statistics of a series of frame times (milliseconds).
public struct FrameStatistics: Sendable, Equatable, Codable {
    public var count: Int
    public var mean: Double
    public var median: Double
    public var p90: Double
    public var p99: Double
    public var min: Double
    public var max: Double

    /// Statistics of `samples`; percentiles by linear interpolation between closest ranks
    /// (the same definition as NumPy's default), so p50 of [1, 2, 3, 4] is 2.5.
    public init(_ samples: [Double]) {
        count = samples.count
        guard !samples.isEmpty else { mean = 0; median = 0; p90 = 0; p99 = 0; min = 0; max = 0; return }
        let s = samples.sorted()
        mean = s.reduce(0, +) / Double(s.count)
        median = Self.percentile(s, 50)
        p90 = Self.percentile(s, 90)
        p99 = Self.percentile(s, 99)
        min = s.first!
        max = s.last!
    }

    /// The p-th percentile (0…100) of already sorted values.
    public static func percentile(_ sorted: [Double], _ p: Double) -> Double {
        guard !sorted.isEmpty else { return 0 }
        let rank = p / 100 * Double(sorted.count - 1)
        let lo = Int(rank.rounded(.down)), hi = Swift.min(lo + 1, sorted.count - 1)
        return sorted[lo] + (sorted[hi] - sorted[lo]) * (rank - Double(lo))
    }

    /// Frames per second from the median frame time.
    public var fps: Double { median > 0 ? 1000 / median : 0 }
}
