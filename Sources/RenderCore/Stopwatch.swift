import Foundation

/// Monotonic time in seconds (CLOCK_MONOTONIC), for stage timings and frame pacing.
public enum MonotonicClock {
    /// Seconds since an arbitrary fixed point.
    @inlinable public static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
    }
}
