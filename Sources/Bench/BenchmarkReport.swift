// BenchmarkReport — human tables, `--compare` ratios and sweep tables/CSV from bench results.
import Viewer
import Foundation

/// Formats bench results for people (tables) and spreadsheets (CSV).
public enum BenchmarkReport {
    /// The human table of one result.
    public static func table(_ r: BenchmarkResult) -> String {
        var out = ""
        func line(_ s: String) { out += s + "\n" }
        let eye = r.trackFile.map { "track \($0)" } ?? r.eye
        line("scene \(r.sceneName): \(r.primitives) \(r.primitiveKind), \(r.width)x\(r.height), \(r.threads) threads, eye \(eye)")
        if let m = r.machine { line("cpu: \(r.cpu), family \(m.family) model \(m.model); \(m.dispatch)") }
        line("\(r.build) build, \(r.cpu) (\(r.cores) cores), \(r.repeats) x (\(r.warmupFrames) warm-up + \(r.measuredFrames) measured) frames")
        line(pad("", 12) + ["mean", "median", "p90", "p99", "min", "max"].map { pad($0, 9, right: true) }.joined())
        line(row("frame ms", [r.frame.mean, r.frame.median, r.frame.p90, r.frame.p99, r.frame.min, r.frame.max]))
        for s in r.stages {
            line(row("  " + s.name, [s.mean, s.median, s.p90]))
        }
        if let w = r.splatWork {
            let kernel = w.blendKernel.map { k in ", blend kernel \(k)" + (w.blendInstructionSet.map { " (\($0))" } ?? "") } ?? ""
            line("splats visible \(w.visibleSplats), tile-splat pairs \(w.tileSplatPairs) (medians)\(kernel)")
        }
        if let g = r.governor {
            line(String(format: "governor: target %.1f ms, p95 %.1f ms, budget median %d of %d splats, %.0f %% of frames within it, render scale ≥ %.2f, %d changes",
                        g.targetMs, g.frameP95Ms, g.budgetMedian, g.wholeSplats, g.heldFraction * 100, g.renderScaleMin, g.changes)
                 + (g.psnrMean.map { m in String(format: "; PSNR against the whole capture %.2f dB mean, %.2f min", m, g.psnrMin ?? m) } ?? "")
                 + (g.wholeAfterSeconds.map { String(format: "; the whole capture on screen %.2f s after the first frame", $0) } ?? ""))
        }
        if let l = r.latency {
            line(row("latency ms", [l.mean, l.median, l.p90, l.p99, l.min, l.max]))
        }
        line(String(format: "fps (from median) %.1f", r.fps))
        if r.repeats > 1 {
            let meds = r.runs.map { String(format: "%.3f", $0.median) }.joined(separator: " ")
            line(String(format: "repeat medians ms: %@  spread %.1f %%", meds, r.spreadPercent))
        }
        let a = r.allocations
        line(String(format: "allocations per frame: %.2f calls, %.0f bytes (%d of %d frames allocated; %@)",
                    a.callsPerFrame, a.bytesPerFrame, a.framesWithAllocations, r.frameMs.count, a.method))
        line(String(format: "peak resident memory %.1f MiB", Double(r.peakResidentBytes) / 1_048_576))
        return out
    }

    /// Ratios of `new` against `old`, result by result (paired by label) and metric by metric.
    /// Ratio = old / new: above 1 means the new result is faster.
    public static func compare(new: BenchmarkDocument, old: BenchmarkDocument, oldName: String) -> String {
        var out = "compared with \(oldName) (ratio = old / new; > 1 = faster now)\n"
        out += pad("", 22) + pad("old ms", 11, right: true) + pad("new ms", 11, right: true) + pad("ratio", 9, right: true) + "\n"
        var paired = 0
        for n in new.results {
            guard let o = old.results.first(where: { $0.label == n.label }) else {
                out += "\(n.label): no result with this label in \(oldName)\n"; continue
            }
            paired += 1
            out += "[\(n.label)]" + (o.primitives != n.primitives || o.width != n.width || o.height != n.height || o.threads != n.threads
                ? "  (differs: old \(o.primitives) \(o.primitiveKind) \(o.width)x\(o.height) \(o.threads)t)" : "") + "\n"
            var pairs: [(String, Double, Double)] = [
                ("frame median", o.frame.median, n.frame.median), ("frame mean", o.frame.mean, n.frame.mean),
                ("frame p90", o.frame.p90, n.frame.p90), ("frame p99", o.frame.p99, n.frame.p99),
            ]
            for s in n.stages { if let os = o.stages.first(where: { $0.name == s.name }) { pairs.append(("  " + s.name + " median", os.median, s.median)) } }
            if let ol = o.latency, let nl = n.latency { pairs.append(("latency median", ol.median, nl.median)) }
            for (name, a, b) in pairs {
                out += pad(name, 22) + String(format: "%11.3f%11.3f", a, b) + pad(b > 0 ? String(format: "%.3f", a / b) : "-", 9, right: true) + "\n"
            }
        }
        if paired == 0 { out += "no results paired (labels: \(old.results.map(\.label).joined(separator: ", ")))\n" }
        return out
    }

    /// A small table of how cost grows along a sweep.
    public static func sweepTable(_ doc: BenchmarkDocument) -> String {
        guard let first = doc.results.first else { return "" }
        var out = "sweep \(doc.sweep ?? "?"): \(first.sceneName) \(first.build), eye \(first.eye)\n"
        let stageNames = first.stages.map(\.name)
        out += pad("point", 18) + ["median ms", "p90 ms", "fps", "x first"].map { pad($0, 11, right: true) }.joined()
            + stageNames.map { pad($0, 11, right: true) }.joined() + "\n"
        let base = first.frame.median
        let governed = doc.results.contains { $0.governor != nil }
        if governed { out.removeLast(); out += ["p95 ms", "budget", "held %", "scale", "PSNR dB"].map { pad($0, 11, right: true) }.joined() + "\n" }
        for r in doc.results {
            out += pad(r.label, 18) + String(format: "%11.3f%11.3f%11.1f%11.2f", r.frame.median, r.frame.p90, r.fps,
                                             base > 0 ? r.frame.median / base : 0)
            for n in stageNames { out += String(format: "%11.3f", r.stages.first { $0.name == n }?.median ?? 0) }
            if governed, let g = r.governor {
                out += String(format: "%11.3f%11d%11.0f%11.2f%11.2f", g.frameP95Ms, g.budgetMedian, g.heldFraction * 100, g.renderScaleMin, g.psnrMean ?? 0)
            }
            out += "\n"
        }
        return out
    }

    /// The sweep as CSV: one row per point, with the frame statistics and stage medians (ms).
    public static func sweepCSV(_ doc: BenchmarkDocument) -> String {
        let stageNames = doc.results.first?.stages.map(\.name) ?? []
        let governed = doc.results.contains { $0.governor != nil }
        var out = "label,scene,primitives,width,height,threads,median_ms,mean_ms,p90_ms,p99_ms,max_ms,fps,alloc_bytes_per_frame"
            + stageNames.map { ",\($0)_median_ms" }.joined()
            + (governed ? ",p95_ms,target_ms,budget_median,held_fraction,render_scale_min,psnr_mean_db" : "") + "\n"
        for r in doc.results {
            let f = r.frame
            out += "\(r.label),\(r.scene),\(r.primitives),\(r.width),\(r.height),\(r.threads),"
                + [f.median, f.mean, f.p90, f.p99, f.max, r.fps, r.allocations.bytesPerFrame].map { String(format: "%.4f", $0) }.joined(separator: ",")
                + stageNames.map { n in String(format: ",%.4f", r.stages.first { $0.name == n }?.median ?? 0) }.joined()
                + (governed ? r.governor.map { g in String(format: ",%.4f,%.4f,%d,%.4f,%.4f,%.4f", g.frameP95Ms, g.targetMs, g.budgetMedian,
                                                             g.heldFraction, g.renderScaleMin, g.psnrMean ?? 0) } ?? ",,,,,," : "") + "\n"
        }
        return out
    }

    static func row(_ name: String, _ v: [Double]) -> String {
        pad(name, 12) + v.map { pad(String(format: "%.3f", $0), 9, right: true) }.joined()
    }

    static func pad(_ s: String, _ n: Int, right: Bool = false) -> String {
        let fill = String(repeating: " ", count: max(0, n - s.count))
        return right ? fill + s : s + fill
    }
}
