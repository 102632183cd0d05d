// AxisMapping — remap and negate axes, e.g. `--axes x,-z,y`.

/// A signed permutation of the three axes: output axis i = sign[i] · input axis source[i].
/// `AxisMapping(parsing: "x,-z,y")` means out.x = in.x, out.y = −in.z, out.z = in.y.
public struct AxisMapping: Equatable, Sendable, CustomStringConvertible, Codable {
    /// For each output axis, the input axis index (0 = x, 1 = y, 2 = z).
    public var source: SIMD3<Int>
    /// For each output axis, +1 or −1.
    public var sign: Vec3d

    /// The identity mapping `x,y,z`.
    public static let identity = AxisMapping(source: SIMD3(0, 1, 2), sign: Vec3d(1, 1, 1))

    /// Creates a mapping from explicit sources and signs.
    public init(source: SIMD3<Int>, sign: Vec3d) { self.source = source; self.sign = sign }

    /// Parses `A,B,C` where each item is an optional `-`/`+` then `x`, `y` or `z`, and each axis
    /// is used exactly once.
    public init(parsing text: String) throws {
        let parts = text.lowercased().split(separator: ",", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }
        let bad = HeadTrackingError.badSpec(what: "axis mapping", value: text,
                                            expected: "three of x,y,z each once, optionally negated, e.g. x,-z,y")
        guard parts.count == 3 else { throw bad }
        var src = SIMD3<Int>(0, 0, 0), sgn = Vec3d(1, 1, 1)
        for (i, p) in parts.enumerated() {
            var s = Substring(p)
            if s.hasPrefix("-") { sgn[i] = -1; s = s.dropFirst() } else if s.hasPrefix("+") { s = s.dropFirst() }
            switch s { case "x": src[i] = 0; case "y": src[i] = 1; case "z": src[i] = 2; default: throw bad }
        }
        guard Set([src.x, src.y, src.z]).count == 3 else { throw bad }
        source = src; sign = sgn
    }

    /// Applies the mapping to a vector.
    public func apply(_ v: Vec3d) -> Vec3d {
        Vec3d(sign.x * v[source.x], sign.y * v[source.y], sign.z * v[source.z])
    }

    public var description: String {
        let names = ["x", "y", "z"]
        return (0..<3).map { (sign[$0] < 0 ? "-" : "") + names[source[$0]] }.joined(separator: ",")
    }

    public init(from decoder: Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        try self.init(parsing: text)
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.singleValueContainer(); try c.encode(description)
    }
}

import Foundation
