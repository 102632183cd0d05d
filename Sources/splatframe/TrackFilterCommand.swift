// TrackFilterCommand — `splatframe track filter LOG --filter … --out OUT.csv`, with jitter and lag.
import ArgumentParser
import Foundation
import HeadTracking

struct TrackFilterCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "filter",
        abstract: "Filter a log offline and print jitter and lag, raw vs filtered.")

    @Argument(help: "Input log.") var log: String
    @Option(help: "none, ema[:ALPHA], oneeuro[:MINCUTOFF,BETA,DCUTOFF].") var filter: String = FilterSpec.default.description
    @Option(help: "Prediction horizon in milliseconds.") var predict: Double?
    @Option(help: "Output CSV (filtered track).") var out: String
    @Flag(help: "Skip bad lines instead of failing.") var lenient = false
    @Option(help: "Add seeded Gaussian noise of this σ (millimetres) to the raw track first (simulates a noisy tracker).")
    var noise: Double?
    @Option(help: "Seed for --noise.") var seed: UInt64 = 1

    func run() throws {
        let spec = try FilterSpec(parsing: filter)
        if let p = predict, !(p >= 0 && p <= 1000) {
            throw HeadTrackingError.badSpec(what: "--predict", value: "\(p)", expected: "0…1000 ms")
        }
        let clean = try PoseLogReader(lenient: lenient).read(path: log)
        var raw = clean
        if let n = noise {
            guard n >= 0, n.isFinite else { throw HeadTrackingError.badSpec(what: "--noise", value: "\(n)", expected: "millimetres ≥ 0") }
            raw = raw.withNoise(sigma: n / 1000, seed: seed)
        }
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
