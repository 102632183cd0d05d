// PoseLogWriter — writes our CSV log format.
import Foundation

/// Writes a `PoseLog` as our CSV: a `#` comment block, then the header
/// `t,x,y,z[,yaw,pitch,roll][,confidence]` (seconds, metres screen space, degrees, 0…1).
public enum PoseLogWriter {
    /// The CSV text for `log`; `comment` lines are prefixed with `# `.
    public static func csv(_ log: PoseLog, comment: [String] = []) -> String {
        var out = ""
        out.reserveCapacity(64 * (log.samples.count + 2))
        for c in comment { out += "# \(c)\n" }
        out += "t,x,y,z"
        if log.hasRotation { out += ",yaw,pitch,roll" }
        if log.hasConfidence { out += ",confidence" }
        out += "\n"
        let deg = 180 / Double.pi
        for s in log.samples {
            out += "\(fmt(s.timestamp)),\(fmt(s.position.x)),\(fmt(s.position.y)),\(fmt(s.position.z))"
            if log.hasRotation {
                let r = (s.rotation ?? .zero) * deg
                out += ",\(fmt(r.x)),\(fmt(r.y)),\(fmt(r.z))"
            }
            if log.hasConfidence { out += ",\(fmt(s.confidence))" }
            out += "\n"
        }
        return out
    }

    /// Writes `log` to `path` (atomically).
    public static func write(_ log: PoseLog, to path: String, comment: [String] = []) throws {
        do {
            try csv(log, comment: comment).write(toFile: path, atomically: true, encoding: .utf8)
        } catch {
            throw HeadTrackingError.writeFailed(file: path, reason: "\(error.localizedDescription)")
        }
    }

    /// Shortest round-tripping decimal for a finite double ("0" for non-finite values).
    static func fmt(_ v: Double) -> String { v.isFinite ? "\(v)" : "0" }
}
