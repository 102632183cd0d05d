// MonotonicClock — the one time base of live head tracking.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Seconds on the system's monotonic clock (CLOCK_MONOTONIC): never jumps, shared by all threads.
/// Live sources stamp samples with it and the frame loop passes it as the frame time.
public enum MonotonicClock {
    /// Now, in seconds since an arbitrary fixed origin.
    public static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
    }
}

/// A clock a source reads: the real monotonic clock, or a test's synthetic one.
public typealias ClockFunction = @Sendable () -> Double
