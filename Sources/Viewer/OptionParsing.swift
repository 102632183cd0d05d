import Foundation
import RenderCore
import SplatRender

/// Parsers for the command line's compound values; each error names the option and the value.
public enum OptionParsing {
    /// Largest image side accepted for `--size` (pixels).
    public static let maxSide = 16384

    /// "X,Y,Z" in metres.
    public static func vector3(_ s: String, option: String) throws -> Vec3 {
        let parts = s.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        guard parts.count == 3, let x = Float(parts[0]), let y = Float(parts[1]), let z = Float(parts[2]),
              x.isFinite, y.isFinite, z.isFinite else {
            throw ViewerError.badOption(name: option, value: s, reason: "expected three numbers X,Y,Z (metres)")
        }
        return Vec3(x, y, z)
    }

    /// An eye position in front of the screen: "X,Y,Z" with 0 < Z ≤ 100 m.
    public static func eye(_ s: String, option: String = "--eye") throws -> Vec3 {
        let v = try vector3(s, option: option)
        guard v.z > 0 else {
            throw ViewerError.badOption(name: option, value: s, reason: "the eye must be in front of the screen (Z > 0 metres)")
        }
        guard v.z <= 100, abs(v.x) <= 100, abs(v.y) <= 100 else {
            throw ViewerError.badOption(name: option, value: s, reason: "the eye must be within 100 m of the screen")
        }
        return v
    }

    /// "WxH" image size in pixels, each 1…16384.
    public static func size(_ s: String, option: String = "--size") throws -> (width: Int, height: Int) {
        let parts = s.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]) else {
            throw ViewerError.badOption(name: option, value: s, reason: "expected WIDTHxHEIGHT in pixels, e.g. 1280x720")
        }
        guard w >= 1, h >= 1, w <= maxSide, h <= maxSide else {
            throw ViewerError.badOption(name: option, value: s, reason: "width and height must be 1…\(maxSide) pixels")
        }
        return (w, h)
    }

    /// A splat blend kernel by name: `lanes8` or `blocks`.
    public static func blendKernel(_ s: String, option: String = "--blend-kernel") throws -> BlendKernel {
        guard let k = BlendKernel(rawValue: s.trimmingCharacters(in: .whitespaces).lowercased()) else {
            throw ViewerError.badOption(name: option, value: s, reason: "expected lanes8 or blocks")
        }
        return k
    }

    /// `--splat-budget`: a splat count (`150000`, `150k`, `1.5M`), or `none`/`off` for no budget (nil).
    public static func splatBudget(_ s: String, option: String = "--splat-budget") throws -> Int? {
        let t = s.trimmingCharacters(in: .whitespaces).lowercased()
        if t == "none" || t == "off" { return nil }
        guard let n = BenchmarkSceneFactory.parseCount(t), n >= 1, n <= 1_000_000_000 else {
            throw ViewerError.badOption(name: option, value: s, reason: "expected a splat count ≥ 1 (e.g. 150k) or none")
        }
        return n
    }

    /// "W,H" screen size in millimetres → metres; each 10 mm…20 m.
    public static func screenMillimetres(_ s: String, option: String = "--screen-mm") throws -> ScreenGeometry {
        let parts = s.lowercased().split(whereSeparator: { $0 == "," || $0 == "x" }).map { $0.trimmingCharacters(in: .whitespaces) }
        guard parts.count == 2, let w = Float(parts[0]), let h = Float(parts[1]), w.isFinite, h.isFinite else {
            throw ViewerError.badOption(name: option, value: s, reason: "expected WIDTH,HEIGHT in millimetres, e.g. 600,340")
        }
        guard w >= 10, h >= 10, w <= 20000, h <= 20000 else {
            throw ViewerError.badOption(name: option, value: s, reason: "width and height must be 10…20000 mm")
        }
        return ScreenGeometry(width: w / 1000, height: h / 1000)
    }

    /// A positive finite number.
    public static func positive(_ v: Double, option: String) throws -> Float {
        guard v.isFinite, v > 0 else {
            throw ViewerError.badOption(name: option, value: "\(v)", reason: "must be a positive number")
        }
        return Float(v)
    }
}
