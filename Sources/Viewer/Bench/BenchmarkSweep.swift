// BenchmarkSweep — `--sweep splats=…|size=…|threads=…|kernel=…`: one configuration per point.
import Foundation
import SplatRender

/// A parsed `--sweep NAME=V1,V2,…`.
public struct BenchmarkSweep: Sendable, Equatable {
    /// `splats`, `size`, `threads` or `kernel` (the splat blend kernel).
    public var parameter: String
    /// The raw values, in order.
    public var values: [String]

    /// Parses and validates the sweep (`option` names it in errors).
    public init(parsing text: String, option: String = "--sweep") throws {
        let parts = text.split(separator: "=", maxSplits: 1).map(String.init)
        guard parts.count == 2, ["splats", "size", "threads", "kernel"].contains(parts[0]) else {
            throw ViewerError.badOption(name: option, value: text,
                                        reason: "expected splats=N,…, size=WxH,…, threads=T,… or kernel=lanes8,blocks")
        }
        parameter = parts[0]
        values = parts[1].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        guard !values.isEmpty, values.count <= 64 else {
            throw ViewerError.badOption(name: option, value: text, reason: "expected 1…64 comma-separated values")
        }
        for v in values { _ = try apply(v, to: BenchmarkConfiguration(scene: "cube"), option: option) }
    }

    /// The configuration for point `value`, labelled `parameter=value`.
    public func apply(_ value: String, to base: BenchmarkConfiguration, option: String = "--sweep") throws -> BenchmarkConfiguration {
        var c = base
        switch parameter {
        case "splats":
            guard let n = BenchmarkSceneFactory.parseCount(value), n >= 1, n <= BenchmarkSceneFactory.maxGeneratedSplats else {
                throw ViewerError.badOption(name: option, value: value, reason: "splat counts must be 1…\(BenchmarkSceneFactory.maxGeneratedSplats) (10k, 1M allowed)")
            }
            c.scene = "generate:\(n)"
        case "size":
            let s = try OptionParsing.size(value, option: option)
            c.width = s.width; c.height = s.height
        case "kernel":
            c.blendKernel = try OptionParsing.blendKernel(value, option: option)
        default:
            guard let t = Int(value), t >= 1, t <= 256 else {
                throw ViewerError.badOption(name: option, value: value, reason: "thread counts must be 1…256")
            }
            c.threads = t
        }
        c.label = "\(parameter)=\(value)"
        return c
    }
}
