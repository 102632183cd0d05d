// BenchmarkSweep — `--sweep splats=…|size=…|threads=…|kernel=…`: one configuration per point.
import Viewer
import Foundation
import SplatRender

/// A parsed `--sweep NAME=V1,V2,…`.
public struct BenchmarkSweep: Sendable, Equatable {
    /// `splats`, `size`, `threads`, `kernel` (the splat blend kernel) or `target-fps` (the
    /// frame-time governor's target: the curve of picture against frame time).
    public var parameter: String
    /// The raw values, in order.
    public var values: [String]

    /// Parses and validates the sweep; errors are `ViewerError.badValue` naming the point.
    public init(parsing text: String) throws {
        let parts = text.split(separator: "=", maxSplits: 1).map(String.init)
        guard parts.count == 2, ["splats", "size", "threads", "kernel", "target-fps"].contains(parts[0]) else {
            throw ViewerError.badValue(what: "sweep", value: text,
                                       reason: "expected splats=N,…, size=WxH,…, threads=T,…, kernel=lanes8,blocks or target-fps=15,30,60")
        }
        parameter = parts[0]
        values = parts[1].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        guard !values.isEmpty, values.count <= 64 else {
            throw ViewerError.badValue(what: "sweep", value: text, reason: "expected 1…64 comma-separated values")
        }
        for v in values { _ = try apply(v, to: BenchmarkConfiguration(scene: "cube")) }
    }

    /// Largest image side and pixel count of a size point (as the command line's `--size`).
    public static let maxSide = 16384, maxPixels = 8192 * 8192

    /// The configuration for point `value`, labelled `parameter=value`.
    public func apply(_ value: String, to base: BenchmarkConfiguration) throws -> BenchmarkConfiguration {
        var c = base
        func bad(_ reason: String) -> ViewerError { .badValue(what: "sweep point", value: value, reason: reason) }
        switch parameter {
        case "splats":
            guard let n = CountText.parse(value), n >= 1, n <= SceneSource.maxGeneratedSplats else {
                throw bad("splat counts must be 1…\(SceneSource.maxGeneratedSplats) (10k, 1M allowed)")
            }
            c.scene = "generate:\(n)"
        case "size":
            let wh = value.lowercased().split(separator: "x", omittingEmptySubsequences: false)
            guard wh.count == 2, let w = Int(wh[0]), let h = Int(wh[1]), w >= 1, h >= 1,
                  w <= Self.maxSide, h <= Self.maxSide, w * h <= Self.maxPixels else {
                throw bad("sizes are WIDTHxHEIGHT, each 1…\(Self.maxSide) pixels, at most \(Self.maxPixels) in all")
            }
            c.width = w; c.height = h
        case "target-fps":
            guard let f = Double(value), f >= 1, f <= 1000 else { throw bad("target frame rates must be 1…1000 fps") }
            c.targetFps = f
        case "kernel":
            guard let k = BlendKernel(rawValue: value.lowercased()) else { throw bad("kernels are lanes8 or blocks") }
            c.blendKernel = k
        default:
            guard let t = Int(value), t >= 1, t <= 256 else { throw bad("thread counts must be 1…256") }
            c.threads = t
        }
        c.label = "\(parameter)=\(value)"
        return c
    }
}
