// TrackFilterCommand — `splatframe track filter LOG --filter … --out OUT.csv`, with jitter and lag.
import ArgumentParser
import Foundation
import HeadTracking

struct TrackFilterCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "filter",
        abstract: "Filter a log offline and print jitter and lag, raw vs filtered.")

    @Argument(help: "Input log.") var log: String
    @OptionGroup var smoothing: SmoothingOptions
    @Option(help: "Output CSV (filtered track).") var out: String
    @OptionGroup var lenientOption: LenientOption
    @Option(parsing: .unconditional, help: "Add seeded Gaussian noise of this σ, 0…1000 millimetres, to the raw track first (simulates a noisy tracker).",
            transform: Checked.number(in: 0...1000, "mm"))
    var noise: Double?
    @Option(parsing: .unconditional, help: "Seed for --noise.") var seed: UInt64 = 1

    func run() throws {
        let spec = smoothing.filter ?? FilterSpec.default
        let predict = smoothing.predict
        let clean = try PoseLogReader(lenient: lenientOption.lenient).read(path: log)
        var raw = clean
        if let n = noise { raw = raw.withNoise(sigma: n / 1000, seed: seed) }
        let filtered = PositionFilter.apply(spec, predictHorizon: predict.map { $0 / 1000 }, to: raw)
        let r = TrackingAnalysis.report(raw: raw, filtered: filtered, reference: noise == nil ? nil : clean)
        func mm(_ v: Double?) -> String { v.map { String(format: "%.3f mm", $0 * 1000) } ?? "n/a (no still windows)" }
        let lag = r.lag.map { String(format: "%.0f ms", $0 * 1000) } ?? "n/a"
        try PoseLogWriter.write(filtered, to: out, comment: [
            "filtered by splatframe track filter from \(log) with \(spec)" + (predict.map { ", predict \($0) ms" } ?? ""),
            "jitter raw \(mm(r.rawJitter)), filtered \(mm(r.filteredJitter)); lag \(lag)",
        ])
        print("filter: \(spec)" + (predict.map { " + predict \($0) ms" } ?? "") + (noise.map { ", raw + \($0) mm noise (seed \(seed))" } ?? ""))
        print("samples: \(raw.samples.count), \(String(format: "%.1f", raw.duration)) s; still windows: \(r.stillWindows) (\(String(format: "%.1f", r.stillSeconds)) s)")
        print("jitter (RMS while still): raw \(mm(r.rawJitter)), filtered \(mm(r.filteredJitter))")
        print("lag (cross-correlation, filtered behind raw): \(lag)")
        print("wrote \(out)")
    }
}
