// GeometryValues — eye points, vectors, image sizes and screen sizes on the command line. One
// rule for X,Y,Z everywhere (three finite numbers), and one for an eye wherever a value is one
// (`--eye`, `--head fixed:`): in front of the screen, within 100 m of it.
import ArgumentParser
import RenderCore

/// Three comma-separated finite numbers `X,Y,Z`, read in double precision.
struct Vector3Value: ArgumentGrammar, Equatable {
    var precise: SIMD3<Double>
    /// The single-precision vector renderers use.
    var value: Vec3 { Vec3(Float(precise.x), Float(precise.y), Float(precise.z)) }

    static func parse(_ text: String) throws -> Vector3Value {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == 3, let x = parts[0], let y = parts[1], let z = parts[2], x.isFinite, y.isFinite, z.isFinite,
              abs(x) < 1e30, abs(y) < 1e30, abs(z) < 1e30 else {
            throw ArgumentRule("expected three numbers X,Y,Z")
        }
        return Vector3Value(precise: SIMD3(x, y, z))
    }
}

/// An eye point in screen space (metres; x right, y up, +z toward the viewer): in front of the
/// screen (0 < Z) and within 100 m of it.
struct EyePoint: ArgumentGrammar, Equatable {
    var precise: SIMD3<Double>
    var value: Vec3 { Vec3(Float(precise.x), Float(precise.y), Float(precise.z)) }

    static func parse(_ text: String) throws -> EyePoint {
        guard let v = try? Vector3Value.parse(text).precise else {
            throw ArgumentRule("expected three numbers X,Y,Z in metres (screen space, Z > 0)")
        }
        return try EyePoint(checking: v)
    }

    /// The eye rule on a point already read (`--head fixed:X,Y,Z`): 0 < Z ≤ 100 m, |X|, |Y| ≤ 100 m.
    init(checking v: SIMD3<Double>) throws {
        guard v.x.isFinite, v.y.isFinite, v.z.isFinite else { throw ArgumentRule("expected three numbers X,Y,Z in metres (screen space, Z > 0)") }
        guard v.z > 0 else { throw ArgumentRule("the eye must be in front of the screen (Z > 0 metres)") }
        guard v.z <= 100, abs(v.x) <= 100, abs(v.y) <= 100 else { throw ArgumentRule("the eye must be within 100 m of the screen") }
        precise = v
    }
}

/// Per-axis strengths `X,Y,Z`, each 0…10 (1 = true movement).
struct AxisStrength: ArgumentGrammar, Equatable {
    var precise: SIMD3<Double>

    static func parse(_ text: String) throws -> AxisStrength {
        guard let v = try? Vector3Value.parse(text).precise, (0...10).contains(v.x), (0...10).contains(v.y), (0...10).contains(v.z) else {
            throw ArgumentRule("expected three strengths X,Y,Z, each 0…10 (1 = true movement)")
        }
        return AxisStrength(precise: v)
    }
}

/// An image size `WIDTHxHEIGHT` in pixels: each side 1…16384 and at most 67,108,864 pixels
/// (8192×8192), so a frame's colour and depth stay within about 512 MB.
struct PixelSize: ArgumentGrammar, Equatable, CustomStringConvertible {
    static let maxSide = 16384
    static let maxPixels = 8192 * 8192
    var width: Int
    var height: Int

    static func parse(_ text: String) throws -> PixelSize {
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let w = Int(parts[0].trimmingCharacters(in: .whitespaces)),
              let h = Int(parts[1].trimmingCharacters(in: .whitespaces)) else {
            throw ArgumentRule("expected WIDTHxHEIGHT in pixels, e.g. 1280x720")
        }
        guard w >= 1, h >= 1, w <= maxSide, h <= maxSide, w * h <= maxPixels else {
            throw ArgumentRule("width and height must be 1…\(maxSide) pixels, at most \(maxPixels) pixels in all")
        }
        return PixelSize(width: w, height: h)
    }

    var description: String { "\(width)x\(height)" }
}

/// The physical screen `WIDTH,HEIGHT` (or `WxH`) in millimetres, each 10…20000.
struct ScreenMillimetres: ArgumentGrammar, Equatable {
    var geometry: ScreenGeometry

    static func parse(_ text: String) throws -> ScreenMillimetres {
        let parts = text.lowercased().split(whereSeparator: { $0 == "," || $0 == "x" }).map { $0.trimmingCharacters(in: .whitespaces) }
        guard parts.count == 2, let w = Float(parts[0]), let h = Float(parts[1]), w.isFinite, h.isFinite else {
            throw ArgumentRule("expected WIDTH,HEIGHT in millimetres, e.g. 600,340")
        }
        guard w >= 10, h >= 10, w <= 20000, h <= 20000 else { throw ArgumentRule("width and height must be 10…20000 mm") }
        return ScreenMillimetres(geometry: ScreenGeometry(width: w / 1000, height: h / 1000))
    }
}
