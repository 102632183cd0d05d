// SceneIO — LevelErrorTable: what each level of detail of a leaf loses against its finest level,
// per pixel, at a few on-screen sizes of the leaf — how a splat budget is best spent (SplatFrame's
// extension of lod-meta.json: a leaf's `levelErrors`; other readers ignore it).
import Foundation

/// Per on-screen size of a leaf (`sizes`: its box's diagonal in pixels) and per level, the mean
/// squared difference per pixel the finest level covers between that level's picture and the
/// finest's (premultiplied RGB and coverage, 0…1 units, averaged over directions all round).
/// Level 0's entries are 0.
public struct LevelErrorTable: Sendable, Equatable {
    /// The leaf's box diagonal on screen (pixels) each row was measured at.
    public static let sizes: [Float] = [12, 24, 48, 96, 192]

    /// Row-major: `values[s * levels + l]` for size `sizes[s]` and level l.
    public let values: [Float]
    /// Levels per row.
    public let levels: Int

    /// nil unless `values` holds `sizes.count × levels` finite numbers ≥ 0.
    public init?(values: [Float], levels: Int) {
        guard levels > 0, values.count == Self.sizes.count * levels, values.allSatisfy({ $0.isFinite && $0 >= 0 }) else { return nil }
        self.values = values; self.levels = levels
    }

    /// The error per pixel of level `level` when the leaf's box diagonal spans `size` pixels:
    /// interpolated in log size between the measured sizes, the nearest row's beyond them.
    public func perPixel(level: Int, size: Float) -> Float { perPixel(level: level, at: Self.place(size)) }

    /// Where `size` falls among `sizes`: the row below and the weight of the row above.
    public static func place(_ size: Float) -> (row: Int, t: Float) {
        let s = sizes
        if !(size > s[0]) { return (0, 0) }
        if size >= s[s.count - 1] { return (s.count - 2, 1) }
        var k = 0
        while size > s[k + 1] { k += 1 }
        return (k, log2(size / s[k]) / log2(s[k + 1] / s[k]))
    }

    /// `perPixel` at a size already placed (`place`), for many levels of one size.
    @inline(__always) public func perPixel(level: Int, at place: (row: Int, t: Float)) -> Float {
        guard level >= 0 && level < levels else { return 0 }
        return values[place.row * levels + level] * (1 - place.t) + values[(place.row + 1) * levels + level] * place.t
    }
}
