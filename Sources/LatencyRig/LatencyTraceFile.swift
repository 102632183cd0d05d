// LatencyTraceFile — a `LatencyTrace` as CSV (`splatframe track latency --trace`), and back: one
// row per tracker read, with `#` header lines naming the path and the camera's rate.
import Foundation
import HeadTracking
import RenderCore

/// Writes and reads `LatencyTrace` CSV:
///
///     # splatframe latency trace 1
///     # motion sway
///     # camera_fps 30
///     read_time,lead,sample_time,publish_time,x,y,z,confidence,present
///
/// Seconds since the motion started; metres in screen space. A read without a sample leaves the
/// sample's five fields empty; a read no presented frame used leaves `present` empty. Bad input
/// is a `HeadTrackingError.badLine` naming the file and line.
public enum LatencyTraceFile {
    static let magic = "# splatframe latency trace 1"
    static let columns = "read_time,lead,sample_time,publish_time,x,y,z,confidence,present"
    static let columnNames = columns.split(separator: ",").map(String.init)

    /// The CSV text of `trace`.
    public static func text(_ trace: LatencyTrace) -> String {
        var out = "\(magic)\n# motion \(trace.motion)\n# camera_fps \(trace.cameraFPS)\n\(columns)\n"
        out.reserveCapacity(trace.reads.count * 96)
        for read in trace.reads {
            out += String(format: "%.6f,%.6f,", read.time, read.lead)
            if let s = read.sample {
                out += String(format: "%.6f,%.6f,%.7f,%.7f,%.7f,%.4f,", s.timestamp, s.publishTime,
                              s.position.x, s.position.y, s.position.z, s.confidence)
            } else {
                out += ",,,,,,"
            }
            if let p = read.present { out += String(format: "%.6f", p) }
            out += "\n"
        }
        return out
    }

    /// Writes `trace` to `path`.
    public static func write(_ trace: LatencyTrace, to path: String) throws {
        do { try text(trace).write(toFile: path, atomically: true, encoding: .utf8) } catch {
            throw HeadTrackingError.writeFailed(file: path, reason: error.localizedDescription)
        }
    }

    /// Reads the trace in `path`.
    public static func read(path: String) throws -> LatencyTrace {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw HeadTrackingError.badFile(file: path, reason: "cannot read the file")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw HeadTrackingError.badFile(file: path, reason: "not UTF-8 text")
        }
        return try parse(text, file: path)
    }

    /// Parses trace CSV; `file` names it in errors.
    public static func parse(_ text: String, file: String) throws -> LatencyTrace {
        var motion: String?, fps: Double?
        var trace: LatencyTrace?
        var lineNumber = 0
        var sawMagic = false, sawColumns = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            lineNumber += 1
            func bad(_ reason: String) -> HeadTrackingError { .badLine(file: file, line: lineNumber, reason: reason) }
            let line = line.hasSuffix("\r") ? line.dropLast() : line
            if line.isEmpty { continue }
            if !sawMagic {
                guard line == magic else { throw bad("not a latency trace (expected '\(magic)')") }
                sawMagic = true; continue
            }
            if line.hasPrefix("#") {
                let words = line.dropFirst().split(separator: " ")
                if words.count == 2 && words[0] == "motion" { motion = String(words[1]) }
                if words.count == 2 && words[0] == "camera_fps" {
                    guard let v = Double(words[1]), v.isFinite, v > 0 else { throw bad("camera_fps '\(words[1])' is not a positive number") }
                    fps = v
                }
                continue
            }
            if !sawColumns {
                guard line == columns else { throw bad("expected the header '\(columns)'") }
                guard let motion, let fps else { throw bad("the '# motion' and '# camera_fps' lines must come before the header") }
                trace = LatencyTrace(motion: motion, cameraFPS: fps)
                sawColumns = true; continue
            }
            let fields = line.split(separator: ",", omittingEmptySubsequences: false)
            guard fields.count == 9 else { throw bad("\(fields.count) fields, expected 9") }
            func number(_ i: Int, _ name: String) throws -> Double? {
                if fields[i].isEmpty { return nil }
                guard let v = Double(fields[i]), v.isFinite else { throw bad("\(name) '\(fields[i])' is not a number") }
                return v
            }
            guard let time = try number(0, "read_time"), let lead = try number(1, "lead") else {
                throw bad("read_time and lead are required")
            }
            if let last = trace!.reads.last, time < last.time { throw bad("read_time \(time) goes back in time") }
            let sampleFields = try (2...7).map { try number($0, columnNames[$0]) }
            var sample: PoseSample?
            if sampleFields.allSatisfy({ $0 != nil }) {
                let s = sampleFields.map { $0! }
                guard s[5] >= 0 && s[5] <= 1 else { throw bad("confidence \(s[5]) is not within 0…1") }
                sample = PoseSample(timestamp: s[0], position: Vec3d(s[2], s[3], s[4]), confidence: s[5], publishTime: s[1])
            } else if sampleFields.contains(where: { $0 != nil }) {
                throw bad("a sample needs all of sample_time, publish_time, x, y, z and confidence")
            }
            trace!.reads.append(LatencyTrace.Read(time: time, lead: lead, sample: sample, present: try number(8, "present")))
        }
        guard let trace else { throw HeadTrackingError.badFile(file: file, reason: sawMagic ? "no header line '\(columns)'" : "empty") }
        return trace
    }
}
