// TrackConvertCommand — `splatframe track convert IN OUT`: any supported log → our CSV.
import ArgumentParser
import HeadTracking

struct TrackConvertCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "convert",
        abstract: "Convert a TUM, opentrack CSV or splatframe log to splatframe CSV (t,x,y,z in screen-space metres).")

    @Argument(help: "Input log (TUM, opentrack CSV, or splatframe CSV).") var input: String
    @Argument(help: "Output CSV.") var output: String
    @Flag(help: "Move the median position to the nominal eye (0, 0, 0.6) m.") var recenter = false
    @Option(help: "Remap/negate axes before recentring, e.g. x,-z,y.") var axes: String?
    @Flag(help: "Skip bad lines (and count them) instead of failing.") var lenient = false

    func run() throws {
        var log = try PoseLogReader(lenient: lenient).read(path: input)
        if let a = axes { log = log.remapped(try AxisMapping(parsing: a)) }
        if recenter { log = log.recentred() }
        try PoseLogWriter.write(log, to: output, comment: [
            "converted by splatframe track convert from \(input) (\(log.format.rawValue))",
            "axes \(axes ?? "x,y,z"), recentred \(recenter), skipped lines \(log.skippedLines)",
        ])
        print("wrote \(log.samples.count) samples (\(String(format: "%.1f", log.duration)) s) to \(output)"
              + (log.skippedLines > 0 ? "; skipped \(log.skippedLines) bad lines" : ""))
    }
}

import Foundation
