// SplatSequenceScene — an animated capture seen through the window: a placed splat model whose
// cloud is swapped in `advance(to:)` for the frame the clock says is due.
import RenderCore
import SplatRender
import TriangleRaster

/// An animated capture (`SplatSequence`), placed like a splat model (`PlacedModel`: fitted by its
/// first frame's robust bounds, so the capture does not jump between frames).
///
/// Two ways of getting frames:
/// - realtime (the window): a `SequenceDecodeAhead` decodes ahead on its own thread; a frame not
///   decoded when due leaves the previous one on screen and counts as a stall (`stalls`); a frame
///   that fails to decode shows its error in `statusLine` and playback goes on.
/// - frame-exact (render, export, bench, tests): `advance(to:)` decodes the due frame on the
///   caller's thread: frame i of a run is always the same picture. A failure is kept in `failure`.
public final class SplatSequenceScene: PlacedModelScene {
    /// The decode-ahead's default memory bound: 512 MB of prepared splats — 30 frames of 150k
    /// splats at SH degree 0 (60 B a splat) or of 100k at degree 3 (150 B a splat).
    public static let defaultBudgetBytes = 512 << 20

    public let name: String
    public let sequence: SplatSequence
    public var model: PlacedModel
    /// The play head (play/pause/step, and the frame due).
    public private(set) var clock: SequenceClock
    /// The frame on screen and its splats.
    public private(set) var shownFrame = 0
    private var splats: PreparedSplats
    /// Realtime only: the background decoder.
    private let decodeAhead: SequenceDecodeAhead?
    /// Frame-exact only: decodes a frame on the caller's thread.
    private let decodeNow: SequenceDecodeAhead.Decode
    /// Times a due frame was not decoded yet (the previous one stayed on screen).
    public private(set) var stalls = 0
    /// The frame whose lateness was counted last (a late frame is one stall, however many
    /// frames of the window it is late for).
    private var lateFrame: Int?
    /// The last frame that failed to decode, with its one-line error.
    public private(set) var failure: (frame: Int, message: String)?
    /// Frame-exact playback: the error of the last frame that failed to decode, for the headless
    /// commands to stop on (the picture would show the frame before it).
    public private(set) var frameError: ViewerError?

    /// `first`: frame 0 already prepared (the loader decoded it to fit the scene). `budgetBytes`:
    /// the decode-ahead's memory bound; nil for frame-exact decoding on the caller's thread.
    public init(name: String, sequence: SplatSequence, first: PreparedSplats, fit: SceneFit, placement: Placement,
                room: TriangleMesh? = nil, budgetBytes: Int?, decode: @escaping SequenceDecodeAhead.Decode) {
        self.name = name; self.sequence = sequence; splats = first; decodeNow = decode
        model = PlacedModel(fit: fit, placement: placement, room: room)
        clock = SequenceClock(count: sequence.frames.count, fps: sequence.fps)
        decodeAhead = budgetBytes.map { SequenceDecodeAhead(count: sequence.frames.count, budgetBytes: $0, decode: decode) }
    }

    /// The decoding thread ends with its scene.
    deinit { decodeAhead?.stop() }

    /// The decode-ahead's figures (nil when frames are decoded frame-exact).
    public var decodeFigures: SequenceDecodeAhead.Figures? { decodeAhead?.figures }

    /// Swapping frames (frame-exact: decoding them) is the scene's own stage.
    public var ownStages: [SceneStage] { [.advance] }

    public var primitiveKind: PrimitiveKind { .splats }
    public var primitiveCount: Int { splats.count }

    /// Swaps in the frame due at `time` (see `SequenceClock`).
    public func advance(to time: Double) {
        show(clock.advance(to: time))
    }

    /// Pauses or plays on (window key).
    public func togglePlaying() {
        clock.togglePlaying()
        show(clock.frame)
    }

    /// Pauses and shows the frame `frames` away (window keys).
    public func step(by frames: Int) {
        clock.step(by: frames)
        show(clock.frame)
    }

    private func show(_ index: Int) {
        guard index != shownFrame else { return }
        if let decodeAhead {
            switch decodeAhead.take(index) {
            case .ready(let s)?:
                splats = s; shownFrame = index
            case .failed(let message)?:
                if failure?.frame != index { failure = (index, message) }
            case nil:
                if lateFrame != index { stalls += 1; lateFrame = index }
            }
            return
        }
        do {
            splats = try decodeNow(index)
            shownFrame = index
        } catch {
            failure = (index, "\(error)")
            frameError = error as? ViewerError ?? .sceneLoad(path: sequence.path, reason: "frame \(index + 1): \(error)")
        }
    }

    /// `frame 3/30 · playing · 24 fps`, the stalls, and the last decoding error.
    public var statusLine: String? {
        var s = "frame \(shownFrame + 1)/\(sequence.frames.count) · \(clock.isPlaying ? "playing" : "paused")"
            + " · \(SplatSequence.rateText(sequence.fps)) fps"
        if let f = decodeFigures { s += " · \(f.cachedFrames) decoded ahead" }
        if stalls > 0 { s += " · \(stalls) late" }
        if let failure { s += " · frame \(failure.frame + 1) failed: \(failure.message)" }
        return s
    }

    public func render(camera: Camera, into target: Framebuffer, context: RenderContext) -> FrameStats {
        let t0 = MonotonicClock.now()
        var (stats, cam) = model.beginFrame(target, camera: camera, context: context, splatsCoverTarget: context.splatsCoverTarget)
        context.splats.antialias = antialias
        stats.splat = context.splats.render(splats, camera: cam, into: target, depthTest: room != nil)
        stats.totalMs = (MonotonicClock.now() - t0) * 1000
        return stats
    }
}
