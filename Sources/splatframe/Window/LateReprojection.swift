// LateReprojection — the window's late latch: the frame just rendered (colour and depth) warped to
// the eye read again after rendering, just before it is presented (Reprojection's `Timewarp`).
import Foundation
import Reprojection
import RenderCore
import Viewer

/// The warp target and its timings. Frame loop only.
final class LateReprojection {
    private let timewarp: Timewarp
    /// The warped frame: what is presented when a warp succeeded.
    let output = Framebuffer(width: 1, height: 1)
    /// The last warp's time (ms) and whether it produced `output`.
    private(set) var lastMs = 0.0
    private(set) var active = false

    /// Late read → present (s), what the late read predicts over.
    private var leads = PresentLeadEstimator()
    private(set) var lead = 0.0

    init(threads: Int) { timewarp = Timewarp(threads: threads) }

    /// The frame whose eye was read late at `lateRead` was presented at `presented`.
    func presented(at presented: Double, lateRead: Double) { lead = leads.presented(at: presented, viewTime: lateRead) }

    /// Warps `frame`, drawn with camera `from`, to camera `to` into `output`. False (and `output`
    /// left alone) when the two cannot be warped (sizes, a camera that is not a perspective one).
    func warp(_ frame: Framebuffer, from: Camera, to: Camera) -> Bool {
        output.resize(width: frame.width, height: frame.height)
        do {
            let stats = try timewarp.warp(frame, from: from, to: to, into: output)
            lastMs = stats.totalMs
            active = true
        } catch {
            active = false
        }
        return active
    }
}
