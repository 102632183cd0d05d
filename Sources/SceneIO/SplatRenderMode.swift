// SceneIO — SplatRenderMode: how a capture asks to be drawn (`comment SplatRenderMode: mip|2dgs`).
//
// Brush, gsplat and PlayCanvas' splat-transform write `comment SplatRenderMode: default|mip|2dgs`
// into a 3DGS PLY's header. `mip`: trained with the antialiasing (Mip-Splatting style) opacity
// compensation, which the renderer then applies (`SceneInfo.antialiased`). `2dgs`: 2D Gaussian
// surfels (Huang et al. 2024), flat discs in the plane of their rotation's first two axes; a 2DGS
// PLY may also leave out `scale_2`. We draw surfels as 3D Gaussians whose local z scale (the
// surfel's normal) is clamped to `surfelThickness` of its larger in-plane scale — see
// Docs/ScenesAndWalls.md for what differs from 2DGS' ray–plane evaluation.
import Foundation
import RenderCore

/// A capture's render mode from its PLY header.
public enum SplatRenderMode: String, Sendable, Codable, Equatable {
    /// Plain 3D Gaussians.
    case `default`
    /// 3D Gaussians trained with the antialiasing compensation (Mip-Splatting style).
    case mip
    /// 2D Gaussian surfels.
    case twoD = "2dgs"

    /// The mode a comment's value names (any case, surrounding blanks ignored), or nil.
    public init?(comment value: String) {
        self.init(rawValue: value.trimmingCharacters(in: .whitespaces).lowercased())
    }

    /// The header comment, without the `comment ` keyword.
    public var comment: String { "SplatRenderMode: \(rawValue)" }

    /// A surfel's thickness (its local z scale) as a fraction of its larger in-plane scale: thin
    /// enough that its projection is the disc's to well under a pixel, thick enough that log-scale
    /// writers (PLY, SPZ, SOG) keep a finite number.
    public static let surfelThickness: Float = 1e-3

    /// Flattens every splat of `cloud` into a surfel: local z scale ≤ `surfelThickness` × max(x, y).
    public static func flattenSurfels(_ cloud: inout SplatCloud) {
        for i in cloud.scales.indices {
            let s = cloud.scales[i]
            cloud.scales[i].z = min(s.z, surfelThickness * max(s.x, s.y))
        }
    }

    /// The mode of a comment line's text (`SplatRenderMode: VALUE`, key in any case), as the value
    /// found; nil when the comment is about something else.
    static func value(inComment text: String) -> String? {
        let t = text.drop { $0 == " " || $0 == "\t" }
        let key = "splatrendermode:"
        guard t.count >= key.count, t.prefix(key.count).lowercased() == key else { return nil }
        return String(t.dropFirst(key.count)).trimmingCharacters(in: .whitespaces)
    }
}
