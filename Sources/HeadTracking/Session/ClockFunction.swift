// ClockFunction — the time base a source reads (RenderCore's MonotonicClock, or a test's synthetic clock).
import RenderCore

/// A clock a source reads: `MonotonicClock.now` (CLOCK_MONOTONIC seconds, shared by all
/// threads, never jumps) for live tracking, or a test's synthetic one.
public typealias ClockFunction = @Sendable () -> Double
