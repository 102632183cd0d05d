// PoseLogReader — parses our CSV, TUM and opentrack CSV logs, with line-numbered errors.
import Foundation

/// Reads head-track logs. Strict mode throws `HeadTrackingError.badLine(file:line:reason:)`
/// on the first bad line; lenient mode skips bad lines and counts them in
/// `PoseLog.skippedLines`. Blank lines and `#` comments are always skipped. Never crashes on input.
public struct PoseLogReader: Sendable {
    /// Skip bad lines (counting them) instead of throwing.
    public var lenient: Bool
    /// Converts opentrack CSV rows; `OpentrackMapping.logDefault` unless changed.
    public var opentrackMapping: OpentrackMapping

    /// Creates a reader.
    public init(lenient: Bool = false, opentrackMapping: OpentrackMapping = .logDefault) {
        self.lenient = lenient; self.opentrackMapping = opentrackMapping
    }

    /// Reads the file at `path`, detecting the format from its first data line.
    public func read(path: String) throws -> PoseLog {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw HeadTrackingError.badFile(file: path, reason: "cannot read file")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw HeadTrackingError.badFile(file: path, reason: "not UTF-8 text")
        }
        return try parse(text, file: path)
    }

    /// Parses log text; `file` names it in errors.
    public func parse(_ text: String, file: String = "<log>") throws -> PoseLog {
        var lines: [(Int, Substring)] = []
        var n = 0
        for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
            n += 1
            let line = raw.trimmingCharacters(in: .whitespaces.union(CharacterSet(charactersIn: "\r")))
            if line.isEmpty || line.hasPrefix("#") { continue }
            lines.append((n, Substring(line)))
        }
        guard let (firstNo, first) = lines.first else {
            throw HeadTrackingError.badFile(file: file, reason: "no samples (empty or only comments)")
        }
        let lower = first.lowercased()
        let log: PoseLog
        if lower.hasPrefix("dt,") && lower.contains("tx") {
            log = try parseOpentrack(header: first, headerLine: firstNo, rows: lines.dropFirst(), file: file)
        } else if lower.first.map({ $0.isLetter }) == true {
            log = try parseOurs(header: first, headerLine: firstNo, rows: lines.dropFirst(), file: file)
        } else {
            log = try parseTUM(rows: lines[...], file: file)
        }
        guard !log.samples.isEmpty else {
            throw HeadTrackingError.badFile(file: file, reason: "no valid samples")
        }
        return log
    }

    // MARK: - Formats

    private func fail(_ file: String, _ line: Int, _ reason: String, skipped: inout Int) throws {
        if lenient { skipped += 1 } else { throw HeadTrackingError.badLine(file: file, line: line, reason: reason) }
    }

    private static func numbers<S: StringProtocol>(_ fields: [S]) -> [Double]? {
        var out: [Double] = []
        out.reserveCapacity(fields.count)
        for f in fields {
            guard let v = Double(f.trimmingCharacters(in: .whitespaces)), v.isFinite else { return nil }
            out.append(v)
        }
        return out
    }

    private func parseOurs(header: Substring, headerLine: Int, rows: ArraySlice<(Int, Substring)>,
                           file: String) throws -> PoseLog {
        let names = header.split(separator: ",", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        func col(_ n: String) -> Int? { names.firstIndex(of: n) }
        guard let ct = col("t"), let cx = col("x"), let cy = col("y"), let cz = col("z") else {
            throw HeadTrackingError.badLine(file: file, line: headerLine,
                                            reason: "header must name columns t,x,y,z (found '\(header)')")
        }
        let rot = (col("yaw"), col("pitch"), col("roll"))
        let hasRot = rot.0 != nil && rot.1 != nil && rot.2 != nil
        let cc = col("confidence")
        // Both eyes (the webcam's logs): right_x… and left_x… give each sample its eye span.
        let eyeCols = ["right_x", "right_y", "right_z", "left_x", "left_y", "left_z"].map(col)
        let hasEyes = eyeCols.allSatisfy { $0 != nil }
        var samples: [PoseSample] = []
        samples.reserveCapacity(rows.count)
        var skipped = 0
        var lastT = -Double.infinity
        for (no, line) in rows {
            let fields = line.split(separator: ",", omittingEmptySubsequences: false)
            guard fields.count == names.count else {
                try fail(file, no, "expected \(names.count) fields, found \(fields.count)", skipped: &skipped); continue
            }
            guard let v = Self.numbers(fields) else {
                try fail(file, no, "not a finite number in '\(line)'", skipped: &skipped); continue
            }
            let t = v[ct]
            guard t >= lastT else { try fail(file, no, "time \(t) goes backwards", skipped: &skipped); continue }
            var r: Vec3d? = nil
            if hasRot, let a = rot.0, let b = rot.1, let c = rot.2 { r = Vec3d(v[a], v[b], v[c]) * (Double.pi / 180) }
            var conf = 1.0
            if let cc {
                conf = v[cc]
                guard (0...1).contains(conf) else {
                    try fail(file, no, "confidence \(conf) outside 0…1", skipped: &skipped); continue
                }
            }
            lastT = t
            var span: Vec3d? = nil
            if hasEyes {
                let e = eyeCols.map { v[$0!] }
                span = Vec3d(e[0] - e[3], e[1] - e[4], e[2] - e[5])
            }
            samples.append(PoseSample(timestamp: t, position: Vec3d(v[cx], v[cy], v[cz]), rotation: r, confidence: conf,
                                      eyeSpan: span))
        }
        return PoseLog(samples: samples, format: .splatframe, skippedLines: skipped,
                       hasRotation: hasRot, hasConfidence: cc != nil)
    }

    private func parseTUM(rows: ArraySlice<(Int, Substring)>, file: String) throws -> PoseLog {
        var samples: [PoseSample] = []
        samples.reserveCapacity(rows.count)
        var skipped = 0
        var lastT = -Double.infinity
        for (no, line) in rows {
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard fields.count == 8 else {
                try fail(file, no, "TUM line needs 8 numbers 't tx ty tz qx qy qz qw', found \(fields.count) fields",
                         skipped: &skipped); continue
            }
            guard let v = Self.numbers(fields) else {
                try fail(file, no, "not a finite number in '\(line)'", skipped: &skipped); continue
            }
            guard v[0] >= lastT else { try fail(file, no, "time \(v[0]) goes backwards", skipped: &skipped); continue }
            lastT = v[0]
            samples.append(PoseSample(timestamp: v[0], position: Vec3d(v[1], v[2], v[3])))
        }
        return PoseLog(samples: samples, format: .tum, skippedLines: skipped)
    }

    private func parseOpentrack(header: Substring, headerLine: Int, rows: ArraySlice<(Int, Substring)>,
                                file: String) throws -> PoseLog {
        let names = header.split(separator: ",", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        func col(_ n: String) -> Int? { names.firstIndex(of: n) }
        // Prefer the raw group; fall back to whichever group the file has.
        let group = ["raw", "corrected", "filtered", "mapped"].first { col($0 + "tx") != nil }
        guard let g = group, let cdt = col("dt"), let cx = col(g + "tx"), let cy = col(g + "ty"), let cz = col(g + "tz")
        else {
            throw HeadTrackingError.badLine(file: file, line: headerLine,
                                            reason: "opentrack header needs dt and rawTX,rawTY,rawTZ columns")
        }
        let ry = col(g + "yaw"), rp = col(g + "pitch"), rr = col(g + "roll")
        let hasRot = ry != nil && rp != nil && rr != nil
        var samples: [PoseSample] = []
        samples.reserveCapacity(rows.count)
        var skipped = 0
        var t = 0.0
        for (no, line) in rows {
            let fields = line.split(separator: ",", omittingEmptySubsequences: false)
            guard fields.count >= names.count else {
                try fail(file, no, "expected \(names.count) fields, found \(fields.count)", skipped: &skipped); continue
            }
            guard let v = Self.numbers(Array(fields.prefix(names.count))) else {
                try fail(file, no, "not a finite number in '\(line)'", skipped: &skipped); continue
            }
            guard v[cdt] >= 0, v[cdt] < 3600 else {
                try fail(file, no, "dt \(v[cdt]) s out of range", skipped: &skipped); continue
            }
            t += v[cdt]
            let p = opentrackMapping.position(Vec3d(v[cx], v[cy], v[cz]))
            var r: Vec3d? = nil
            if hasRot, let ry, let rp, let rr { r = opentrackMapping.rotation(Vec3d(v[ry], v[rp], v[rr])) }
            samples.append(PoseSample(timestamp: t, position: p, rotation: r))
        }
        return PoseLog(samples: samples, format: .opentrackCSV, skippedLines: skipped, hasRotation: hasRot)
    }
}
