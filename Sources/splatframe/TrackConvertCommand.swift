// TrackConvertCommand — `splatframe track convert IN (--out OUT | OUT)`: any supported log → our CSV.
import ArgumentParser
import HeadTracking

struct TrackConvertCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "convert",
        abstract: "Convert a TUM, opentrack CSV or splatframe log to splatframe CSV (t,x,y,z in screen-space metres).")

    @Argument(help: "Input log (TUM, opentrack CSV, or splatframe CSV).") var input: String
    @Argument(help: ArgumentHelp("Output CSV, as --out gives it.", valueName: "out.csv")) var positionalOutput: String?
    @Option(help: "Output CSV.") var out: String?
    @OptionGroup var frame: LogFrameOptions
    @OptionGroup var lenientOption: LenientOption

    func validate() throws { _ = try OutputPath.resolve(out: out, positional: positionalOutput, name: "OUT.csv") }

    /// The output file (`validate()` saw exactly one).
    var output: String { out ?? positionalOutput ?? "" }

    func run() throws {
        var log = try PoseLogReader(lenient: lenientOption.lenient).read(path: input)
        if let a = frame.axes { log = log.remapped(a) }
        if frame.recenter { log = log.recentred() }
        try PoseLogWriter.write(log, to: output, comment: [
            "converted by splatframe track convert from \(input) (\(log.format.rawValue))",
            "axes \(frame.axes.map { "\($0)" } ?? "x,y,z"), recentred \(frame.recenter), skipped lines \(log.skippedLines)",
        ])
        print("wrote \(log.samples.count) samples (\(String(format: "%.1f", log.duration)) s) to \(output)"
              + (log.skippedLines > 0 ? "; skipped \(log.skippedLines) bad lines" : ""))
    }
}

import Foundation
