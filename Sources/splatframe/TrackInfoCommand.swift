// TrackInfoCommand — `splatframe track info LOG`: format, length, rate, extent, raw jitter.
import ArgumentParser
import Foundation
import HeadTracking

struct TrackInfoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "info", abstract: "Describe a head-track log.")

    @Argument(help: "Log file.") var log: String
    @OptionGroup var lenientOption: LenientOption
    var lenient: Bool { lenientOption.lenient }

    func run() throws {
        let l = try PoseLogReader(lenient: lenient).read(path: log)
        func v(_ x: Vec3d) -> String { String(format: "%.4f, %.4f, %.4f", x.x, x.y, x.z) }
        print("file: \(log)")
        print("format: \(l.format.rawValue)")
        print("samples: \(l.samples.count)" + (l.skippedLines > 0 ? " (skipped \(l.skippedLines) bad lines)" : ""))
        print(String(format: "duration: %.3f s, mean rate %.2f Hz", l.duration, l.meanRate))
        if let b = l.bounds {
            print("min (m): \(v(b.min))")
            print("max (m): \(v(b.max))")
            print("range (m): \(v(b.max - b.min))")
        }
        if let m = l.medianPosition { print("median (m): \(v(m))") }
        print("rotation: \(l.hasRotation ? "yes" : "no"), confidence: \(l.hasConfidence ? "yes" : "no")")
        let w = TrackingAnalysis.stillWindows(l)
        if let j = TrackingAnalysis.jitter(l, windows: w) {
            print(String(format: "jitter while still: %.3f mm RMS over %d windows of 0.5 s", j * 1000, w.count))
        } else {
            print("jitter while still: n/a (no still windows)")
        }
    }
}
