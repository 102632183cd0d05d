// MemoryPrefault — faults in, on a background thread, the pages of buffers that a coming frame
// will write for the first time, so that the frame does not pay the kernel for them. A fresh
// page costs its zeroing and, in a virtual machine whose host has not backed that memory yet,
// far more: the 4M room's first whole frame spent 0.3–0.5 s of its 0.45–0.6 s in page faults on
// this project's 2-core VM. Contract: it changes no byte a program can read (pages already
// present are left as they are; absent ones become the zero pages a first write would have
// made), so it may run while the owner reads and writes the same memory. It populates a slice
// (`sliceBytes`) per call: one call over a whole region holds the process's memory-map lock for
// its length, and every thread that maps or unmaps memory meanwhile (a decoder's fresh arrays)
// waits for it — 0.25–0.5 s for the 4M room's 830 MB, measured.
#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// Populates page tables ahead of first writes (`MADV_POPULATE_WRITE`, Linux 5.14 and later;
/// elsewhere it does nothing).
public enum MemoryPrefault {
    /// `MADV_POPULATE_WRITE` (not in every libc's headers).
    static let populateWrite: Int32 = 23
    /// Bytes populated per call (a multiple of every page size in use, huge pages included): a
    /// thread waiting to map memory waits for one slice at most.
    static let sliceBytes = 2 << 20

    /// Faults in the whole pages of `bytes` bytes from `base`, on the calling thread, a slice at a
    /// time (aligned to `sliceBytes`, so a huge page is never split between calls). Harmless on
    /// memory that is freed meanwhile (the kernel refuses an unmapped range; a range mapped again
    /// gets the zero pages its first write would have).
    public static func populate(_ base: UnsafeMutableRawPointer, bytes: Int) {
        #if os(Linux)
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let start = (Int(bitPattern: base) + page - 1) / page * page
        let end = (Int(bitPattern: base) + bytes) / page * page
        var from = start
        while from < end {
            let to = min(end, (from / sliceBytes + 1) * sliceBytes)
            guard let p = UnsafeMutableRawPointer(bitPattern: from) else { return }
            _ = madvise(p, to - from, populateWrite)
            from = to
        }
        #endif
    }

    /// `populate` for each region, one after the other on a one-shot `BackgroundThread`. Each
    /// region is (start address, bytes).
    public static func populateInBackground(_ regions: [(address: Int, bytes: Int)]) {
        let regions = regions.filter { $0.bytes > 0 && $0.address != 0 }
        guard !regions.isEmpty else { return }
        BackgroundThread(name: "prefault").start {
            for r in regions {
                if let p = UnsafeMutableRawPointer(bitPattern: r.address) { populate(p, bytes: r.bytes) }
            }
            return false
        }
    }
}
