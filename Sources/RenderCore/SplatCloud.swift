/// A set of 3D Gaussians (3DGS splats) as a structure of arrays, in the file's own frame.
///
/// Every array has `count` entries except `shRest`, which holds `count * shRestCount * 3`
/// floats: for splat i, coefficient k (0-based, in 3DGS order, band 1 first) and channel c
/// (R, G, B) the value is `shRest[(i * shRestCount + k) * 3 + c]` — channel innermost.
/// Colours are spherical-harmonic coefficients; the rendered colour is
/// `C0 * dc + Σ rest terms + 0.5`. Formats that store plain colours (`.splat`) store
/// `dc = (colour − 0.5) / C0`, so they render their colour exactly.
public struct SplatCloud: Sendable {
    /// Centres (model space).
    public var positions: [Vec3]
    /// Standard deviations along the local axes (linear, not log).
    public var scales: [Vec3]
    /// Unit rotations (w, x, y, z).
    public var rotations: [Quaternion]
    /// Opacity in 0…1 (after the sigmoid).
    public var opacities: [Float]
    /// Degree-0 SH coefficient per channel (`f_dc_0..2`).
    public var dc: [Vec3]
    /// SH degree 0…4, as the file holds it. Degree 4 (24 rest coefficients per channel) is kept
    /// so writers can pass it on; renderers evaluate bands 0–3, i.e. the first 15 coefficients of
    /// each splat's `shRestCount` (the 3DGS reference's colour).
    public var shDegree: Int
    /// Higher-order SH coefficients, channel innermost (see the type's documentation).
    public var shRest: [Float]

    /// The SH band-0 constant of the 3DGS reference.
    public static let shC0: Float = 0.28209479177387814

    /// The highest SH degree a cloud holds (files: 3DGS PLY with 72 `f_rest_*`, `.spz` shDegree 4).
    public static let maxSHDegree = 4

    /// Number of rest coefficients per channel for a degree: 0, 3, 8, 15, 24.
    @inlinable public static func restCount(degree: Int) -> Int { (degree + 1) * (degree + 1) - 1 }

    /// Rest coefficients per channel for this cloud's degree.
    public var shRestCount: Int { SplatCloud.restCount(degree: shDegree) }

    /// Number of splats.
    public var count: Int { positions.count }

    /// An empty cloud of the given SH degree.
    public init(shDegree: Int = 0) {
        positions = []; scales = []; rotations = []; opacities = []; dc = []; shRest = []
        self.shDegree = shDegree
    }

    /// Creates a cloud from complete arrays. - Precondition: the counts agree.
    public init(positions: [Vec3], scales: [Vec3], rotations: [Quaternion], opacities: [Float], dc: [Vec3],
                shDegree: Int = 0, shRest: [Float] = []) {
        precondition(scales.count == positions.count && rotations.count == positions.count
                     && opacities.count == positions.count && dc.count == positions.count
                     && shRest.count == positions.count * SplatCloud.restCount(degree: shDegree) * 3,
                     "SplatCloud arrays disagree in length")
        self.positions = positions; self.scales = scales; self.rotations = rotations
        self.opacities = opacities; self.dc = dc; self.shDegree = shDegree; self.shRest = shRest
    }

    /// Reserves room for `n` splats.
    public mutating func reserveCapacity(_ n: Int) {
        positions.reserveCapacity(n); scales.reserveCapacity(n); rotations.reserveCapacity(n)
        opacities.reserveCapacity(n); dc.reserveCapacity(n); shRest.reserveCapacity(n * shRestCount * 3)
    }

    /// Appends one splat; `rest` must hold `shRestCount * 3` values (channel innermost).
    public mutating func append(position: Vec3, scale: Vec3, rotation: Quaternion, opacity: Float, dc: Vec3, rest: [Float] = []) {
        positions.append(position); scales.append(scale); rotations.append(rotation)
        opacities.append(opacity); self.dc.append(dc)
        let n = shRestCount * 3
        if rest.count == n { shRest += rest } else { shRest += [Float](repeating: 0, count: n) }
    }

    /// Appends every splat of `other` (of the same SH degree).
    public mutating func append(contentsOf other: SplatCloud) {
        precondition(other.shDegree == shDegree, "appending SH degree \(other.shDegree) to \(shDegree)")
        positions += other.positions; scales += other.scales; rotations += other.rotations
        opacities += other.opacities; dc += other.dc; shRest += other.shRest
    }

    /// Base (view-independent) colour of splat i: `C0 * dc + 0.5`, unclamped.
    public func baseColor(_ i: Int) -> Vec3 { dc[i] * SplatCloud.shC0 + 0.5 }

    /// Converts a plain 0…1 colour to the DC coefficient that renders it.
    @inlinable public static func dcFromColor(_ c: Vec3) -> Vec3 { (c - 0.5) / shC0 }

    /// Axis-aligned bounds of the centres.
    public var bounds: Bounds { Bounds(points: positions) }
}
