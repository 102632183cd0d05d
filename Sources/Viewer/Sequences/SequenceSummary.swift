// SequenceSummary — what `info` says of an animated capture: frames, rate, duration, splats per
// frame, SH degree, and what decoding costs (every frame is decoded and prepared once, timed).
import Foundation
import RenderCore
import SplatRender

/// An animated capture described by decoding each of its frames once.
public struct SequenceSummary: Sendable, Codable, Equatable {
    /// The folder, ZIP or JSON.
    public var path: String
    /// Where the frames come from: "folder", "zip" or "json".
    public var source: String
    public var frames: Int
    public var fps: Double
    /// One loop (seconds).
    public var duration: Double
    /// Splats of each frame, in playing order.
    public var splatsPerFrame: [Int]
    /// The highest SH degree of any frame (0…4; the renderer evaluates up to 3).
    public var shDegree: Int
    /// Mean time to decode a frame (SceneIO) and to prepare it for the renderer (ms).
    public var decodeMs: Double
    public var prepareMs: Double
    /// Mean bytes of a prepared frame (what the decode-ahead's budget counts).
    public var preparedBytes: Int
    /// Frames of this size the default decode-ahead budget holds (`SplatSequenceScene.defaultBudgetBytes`).
    public var framesInDefaultBudget: Int
    /// Readers' notes (first frame's), one line each.
    public var warnings: [String]

    /// Decodes and prepares every frame of `sequence` (in order, on this thread), reporting
    /// (frames done, frames) to `progress`. Throws the first frame that fails, naming it.
    public static func of(_ sequence: SplatSequence, progress: ((Int, Int) -> Void)? = nil) throws -> SequenceSummary {
        var splats: [Int] = [], degree = 0, decodeS = 0.0, prepareS = 0.0, bytes = 0
        var warnings: [String] = []
        for i in sequence.frames.indices {
            let t0 = MonotonicClock.now()
            let (cloud, info) = try sequence.decode(i)
            let t1 = MonotonicClock.now()
            let prepared = SplatRenderer.prepare(cloud)
            prepareS += MonotonicClock.now() - t1
            decodeS += t1 - t0
            bytes += prepared.bytes
            splats.append(cloud.count)
            degree = max(degree, cloud.shDegree)
            if i == 0 { warnings = info.warnings }
            progress?(i + 1, sequence.frames.count)
        }
        let n = Double(max(1, splats.count))
        let meanBytes = bytes / max(1, splats.count)
        let source = SplatSequence.isFrameZip(sequence.path) ? "zip" : SceneSource.isSceneDescription(sequence.path) ? "json" : "folder"
        return SequenceSummary(path: sequence.path, source: source, frames: splats.count, fps: sequence.fps, duration: sequence.duration,
                               splatsPerFrame: splats, shDegree: degree, decodeMs: decodeS / n * 1000, prepareMs: prepareS / n * 1000,
                               preparedBytes: meanBytes,
                               framesInDefaultBudget: SplatSequenceScene.defaultBudgetBytes / max(1, meanBytes),
                               warnings: warnings)
    }

    /// Lines for people.
    public var text: String {
        let lo = splatsPerFrame.min() ?? 0, hi = splatsPerFrame.max() ?? 0
        let perFrame = lo == hi ? "\(lo)" : "\(lo)…\(hi) (mean \(splatsPerFrame.reduce(0, +) / max(1, frames)))"
        let costMs = decodeMs + prepareMs
        var lines = [
            "path:        \(path)",
            "kind:        animated capture (\(source) of \(frames) frame\(frames == 1 ? "" : "s"))",
            "rate:        \(SplatSequence.rateText(fps)) fps, \(String(format: "%.3f", duration)) s a loop",
            "splats:      \(perFrame) per frame",
            "SH degree:   \(shDegree)",
            String(format: "decode:      %.1f ms + prepare %.1f ms per frame (mean): about %.0f frames/s on one thread",
                   decodeMs, prepareMs, costMs > 0 ? 1000 / costMs : 0),
            String(format: "memory:      %.1f MB per prepared frame; the window's default %d MB budget holds %d such frames (%@)",
                   Double(preparedBytes) / 1e6, SplatSequenceScene.defaultBudgetBytes >> 20, framesInDefaultBudget,
                   framesInDefaultBudget >= frames ? "the whole loop: each frame decoded once" : "not the whole loop: decoded as it plays"),
        ]
        lines += warnings.map { "warning:     \($0)" }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Pretty-printed JSON (keys sorted).
    public var json: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(self)).flatMap { String(data: $0, encoding: .utf8) } ?? "{}"
    }
}
