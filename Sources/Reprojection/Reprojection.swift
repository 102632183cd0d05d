// Reprojection — late reprojection ("timewarp") of a rendered frame to a newer eye, on the CPU.
//
// Job: given a frame (colour + depth) and the camera it was rendered with, produce the frame as
// the newest predicted eye would see it, just before presenting: the last step of the pipeline
// (ARCHITECTURE.md, "reprojection to the newest eye"). The same call, made again from the same
// frame to each display refresh's own eye, lets the presented rate exceed the render rate; in
// stereo each eye's frame is warped to its own eye point, one call per eye.
//
// Method: forward warping with a depth test, a sub-pixel read, then a background-first hole fill.
//   0. The warp's depth (`setSource`, once per source frame): the source depth, except that
//      splat rims — their depth is +inf where accumulated opacity stays below ½ — take the
//      depth of the object within 3 pixels, so they move with it (`RowDepthWork.dilate`); and
//      each 2×2 quad whose depths lie within 2 % of each other is marked smooth (the sign bit
//      of its upper-left depth, `RowDepthWork.smooth`), so that step 2 reads no depths there.
//   1. Each source pixel centre is lifted to 3D by its depth and projected into the target;
//      the nearest target pixel records the source pixel if it is nearer than what is there (a
//      z-buffer on the target's camera-space depth). For any two perspective cameras the
//      target's homogeneous pixel position is d·(a + b·i + c·j) + e for source pixel (i, j) at
//      depth d (`WarpMapping`): three fused multiply-adds and a reciprocal per pixel, 8 pixels
//      per SIMD vector. Pixels with infinite depth (the background) move as points at
//      infinity: a + b·i + c·j is the projected direction. For an off-axis window frustum only
//      the eye moves, so a point at infinity shifts by the eye's lateral move on the screen,
//      and a point in the screen plane stays put.
//   2. Each reached target pixel reads the source bilinearly where its centre falls (the
//      winner's position plus the centre's offset from where it landed: the warp is locally a
//      translation), texels across a depth edge replaced by the winner's own colour
//      (`BandWork.resolve`). Nearest-pixel colours misplace every edge by up to half a pixel.
//   3. Holes (disocclusions, cracks where a surface is stretched, the strip the old frame never
//      saw) take the farther of the nearest reached pixels above and below (within 4 rows)
//      when there are both, else the farther end of their run in the row: a disocclusion
//      reveals what was behind, so the background, not the foreground, fills it.
// Why not backward (inverse) warping: it needs an iterative search per target pixel through a
// depth that is discontinuous at every silhouette — several source reads per pixel and
// failures exactly where the picture matters — while the forward warp does one read and one
// conditional write per source pixel and resolves occlusion exactly with its depth test.
//
// Threads: one pool hand-off per call. `setSource` measures rows, then (the workers meet,
// spinning) dilates them; a warp bounds each source row block's target rows (its depth range
// through the new mapping; the workers meet again), then cuts the target into bands of rows
// claimed from an atomic counter: a band reads the source row blocks (128 columns) that can
// land in it and writes only its own rows, so no two workers write one pixel. The fill reads
// only pixels the warp reached, so it needs no order between rows: a band fills its rows more
// than 4 rows from its edges right after its resolve (still in cache), and the worker that
// resolves the second band of a seam fills the rows around it (`BandSeams`).
// Within a band source pixels go in raster order and ties keep the first: the output bytes do
// not depend on the thread count or the band size. Buffers grow once and are reused: a steady
// state allocates nothing.
//
// Contract: pixels are `Framebuffer`'s (packed sRGB RGBA, (0, 0) top-left, centres at +0.5);
// depth is camera-space distance along −Z in metres, +inf where nothing was drawn; cameras are
// `Camera`s whose projections are perspective (bottom row (0, 0, −1, 0), as every
// `OffAxisFrustum` is). The output depth is the target camera's, holes taking their filler's.
import RenderCore

/// What can go wrong when warping a frame.
public enum ReprojectionError: Error, Equatable, CustomStringConvertible {
    /// A framebuffer's size differs from its camera's.
    case sizeMismatch(what: String, framebuffer: (width: Int, height: Int), camera: (width: Int, height: Int))
    /// A camera's projection is not a perspective one (its bottom row is not (0, 0, −1, 0)) or
    /// cannot be inverted.
    case unsupportedProjection(what: String)
    /// `warp(to:into:)` was called before any `setSource`.
    case noSource
    /// The source frame has more pixels than the warp indexes exactly (2²³, a 3840×2160 frame
    /// fits) or is wider or taller than 16384.
    case sourceTooLarge(width: Int, height: Int)

    public static func == (a: ReprojectionError, b: ReprojectionError) -> Bool { a.description == b.description }

    public var description: String {
        switch self {
        case let .sizeMismatch(what, f, c):
            return "timewarp: the \(what) framebuffer is \(f.width)×\(f.height) but its camera is \(c.width)×\(c.height)"
        case let .unsupportedProjection(what):
            return "timewarp: the \(what) camera's projection is not an invertible perspective projection (bottom row must be 0, 0, −1, 0)"
        case .noSource:
            return "timewarp: no source frame (call setSource first)"
        case let .sourceTooLarge(w, h):
            return "timewarp: a \(w)×\(h) source frame is too large (at most 2^23 pixels, 16384 on a side)"
        }
    }
}
