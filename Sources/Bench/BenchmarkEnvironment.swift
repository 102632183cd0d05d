// BenchmarkEnvironment — facts about the machine and build recorded with every result.
import Viewer
import Foundation

/// Build configuration, CPU model, peak memory and timestamps for bench results.
public enum BenchmarkEnvironment {
    /// `debug` or `release` (how this module was compiled).
    public static var buildConfiguration: String {
        #if DEBUG
        return "debug"
        #else
        return "release"
        #endif
    }

    /// The CPU's model name from /proc/cpuinfo, or "unknown".
    public static let cpuModel: String = {
        guard let text = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8) else { return "unknown" }
        for line in text.split(separator: "\n") where line.hasPrefix("model name") {
            if let v = line.split(separator: ":", maxSplits: 1).last { return v.trimmingCharacters(in: .whitespaces) }
        }
        return "unknown"
    }()

    /// Peak resident set size of the process so far, in bytes (`getrusage`, ru_maxrss).
    public static func peakResidentBytes() -> Int {
        var u = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &u)
        #if os(Linux)
        return Int(u.ru_maxrss) * 1024
        #else
        return Int(u.ru_maxrss)
        #endif
    }

    /// The current time as ISO 8601 UTC.
    public static func now() -> String {
        ISO8601DateFormatter().string(from: Date())
    }
}
