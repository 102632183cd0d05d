// AllocationCounter — process-wide heap allocation counts from the CAllocationCounter shim.
import Viewer
import CAllocationCounter

/// Counts of heap allocations made by every thread of the process since it started, read
/// from the `CAllocationCounter` C shim, which interposes `malloc`, `calloc`, `realloc`,
/// `posix_memalign`, `aligned_alloc`, `memalign` and `valloc` (forwarding to glibc's
/// `__libc_*` entry points). Reading a snapshot never allocates.
public enum AllocationCounter {
    /// One reading of the counters.
    public struct Snapshot: Sendable, Equatable {
        /// Allocating calls so far.
        public var calls: UInt64
        /// Bytes requested so far.
        public var bytes: UInt64

        /// Counts between `earlier` and this snapshot.
        public func since(_ earlier: Snapshot) -> Snapshot {
            Snapshot(calls: calls &- earlier.calls, bytes: bytes &- earlier.bytes)
        }
    }

    /// The counters now.
    @inline(__always) public static func snapshot() -> Snapshot {
        Snapshot(calls: sf_alloc_calls(), bytes: sf_alloc_bytes())
    }

    /// True when this build interposes malloc at all (false on non-glibc platforms and in
    /// sanitizer builds, where the sanitizer owns the allocator).
    public static var isInterposed: Bool { sf_alloc_interposed() != 0 }

    /// True when the interposed allocator is really the one Swift code goes through here
    /// (probed once by allocating a Swift array and watching the count move). False on
    /// platforms without glibc, where every count stays 0.
    public static let isActive: Bool = {
        let before = snapshot()
        let probe = [UInt8](repeating: 1, count: 4096 + Int(before.calls & 1))
        let after = snapshot()
        return probe.count > 0 && after.calls > before.calls
    }()
}
