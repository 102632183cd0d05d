// SoakStats — `--stats-every S`: frame-time median and resident memory on stderr every S seconds.
import Foundation
import RenderCore

/// Collects the window's render times and prints, every `every` seconds, one line
/// `splatframe: stats t=S frames=N median_ms=M p90_ms=P rss_mb=R` (resident memory from
/// /proc/self/statm), which `Scripts/soak.sh` parses, then ` budget=B` (the splat budget the
/// governor chose last) and ` shown=N` (the splats its last frame showed) while one governs.
/// Frame loop only; not thread-safe.
final class SoakStats {
    let every: Double
    private let start = MonotonicClock.now()
    private var lastPrint: Double
    private var samples: [Double] = []
    private var frames = 0

    init(every: Double) {
        self.every = every
        lastPrint = start
        samples.reserveCapacity(4096)
    }

    func frame(ms: Double, governedBudget: Int? = nil, shown: Int? = nil) {
        frames += 1
        if samples.count < 100_000 { samples.append(ms) }
        let now = MonotonicClock.now()
        guard now - lastPrint >= every else { return }
        lastPrint = now
        samples.sort()
        let median = samples.isEmpty ? 0 : samples[samples.count / 2]
        let p90 = samples.isEmpty ? 0 : samples[min(samples.count - 1, samples.count * 9 / 10)]
        let line = String(format: "splatframe: stats t=%.1f frames=%d median_ms=%.2f p90_ms=%.2f rss_mb=%.1f",
                          now - start, frames, median, p90, Self.residentMB()) + (governedBudget.map { " budget=\($0)" } ?? "")
            + (shown.map { " shown=\($0)" } ?? "") + "\n"
        FileHandle.standardError.write(Data(line.utf8))
        samples.removeAll(keepingCapacity: true)
    }

    /// Resident set size in MB (pages × page size from /proc/self/statm), 0 when unreadable.
    static func residentMB() -> Double {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Double(fields[1]) else { return 0 }
        return pages * Double(sysconf(Int32(_SC_PAGESIZE))) / 1e6
    }
}
