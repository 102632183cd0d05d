// Timewarp — the late-reprojection engine: a source frame set once, warped to any number of
// newer eyes (see Reprojection.swift for the method and the contract).
#if canImport(Glibc)
import Glibc
#endif
import Synchronization
import RenderCore
import Workers

/// Times and counts of the last warp.
public struct WarpStats: Sendable, Equatable {
    /// Whole `warp(to:into:)` call, milliseconds.
    public var totalMs: Double = 0
    /// Forward warp with the depth test, resolve and (bands of 8 rows or more) hole fill, milliseconds.
    public var scatterMs: Double = 0
    /// Hole fill stage, milliseconds (0 when the bands fill their rows and seams themselves,
    /// within `scatterMs`: bands of 8 rows or more).
    public var fillMs: Double = 0
    /// Target pixels no source pixel reached (filled from their neighbours).
    public var holePixels = 0

    public init() {}
}

/// Warps a rendered frame (colour + depth) to a new camera on the CPU: forward warping with a
/// depth test, then a background-first hole fill.
///
///     let timewarp = Timewarp(threads: 2)                          // once
///     try timewarp.warp(frame, from: renderCamera, to: newestCamera, into: presented)
///
/// To present faster than the renderer draws, set the finished frame once and warp it to each
/// refresh's eye while the next frame renders into another framebuffer:
///
///     try timewarp.setSource(frame, camera: renderCamera)       // when a render completes
///     try timewarp.warp(to: eyeCamera(now), into: presented)      // every refresh
///
/// In stereo, warp each eye's frame to that eye's new camera (one `Timewarp` may serve both,
/// one call after the other, or one each to run them concurrently).
///
/// Cost: about one pass over the source's depth in `setSource`, then per warp one projection
/// and one conditional write per source pixel and a scan of the target for holes; in bands of
/// target rows on `threads` threads. Not re-entrant: one call at a time per instance. The
/// output does not depend on the thread count.
public final class Timewarp {
    /// Threads a warp runs on (the calling thread included).
    public let threads: Int
    /// Target rows per work item (the output does not depend on it).
    public var bandRows = 24
    /// The last warp's times and hole count.
    public private(set) var lastStats = WarpStats()

    let pool: WorkerPool<Timewarp>
    var stage = WarpStage.idle
    let nextItem = Atomic<Int>(0)
    /// A stage's second phase: its next item, and how many items of its first phase are done
    /// (every worker waits for all of them before it starts the second).
    let phaseItem = Atomic<Int>(0), phaseDone = Atomic<Int>(0)
    /// Per source row, per block of `WarpKernel.blockColumns` columns: (least positive finite
    /// depth, greatest finite depth, has +inf, has finite).
    let rowDepths = ScratchBuffer<SIMD4<Float>>()
    /// The source's depth as the warp uses it (see `RowDepthWork.dilate`).
    let warpDepth = ScratchBuffer<Float>()
    /// Per source row, bits of finite and of infinite depth (`RowDepthWork`).
    let finiteBits = ScratchBuffer<UInt64>(), infiniteBits = ScratchBuffer<UInt64>()
    /// Per source row, per block: the first and last target row it can land in (first > last:
    /// none).
    let rowTargets = ScratchBuffer<SIMD2<Int32>>()
    /// Per source row: the first and last target row of any of its blocks.
    let rowSpans = ScratchBuffer<SIMD2<Int32>>()
    /// Per seam between two bands: bands still to resolve (the seam's rows are filled then).
    let seams = BandSeams()
    /// Per target row: holes found.
    let rowHoles = ScratchBuffer<Int>()
    /// Per target pixel: where its centre falls in the source, from the winner (`BandWork.offsets`).
    let offsets = ScratchBuffer<UInt32>()
    /// Per target pixel, a bit: reached by the warp.
    let reachedBits = ScratchBuffer<UInt8>()
    private(set) var source: Framebuffer?
    private(set) var sourceCamera: Camera?
    /// `setSource(copying:)`'s own copy of the source's colour.
    private let ownCopy = Framebuffer(width: 1, height: 1)

    /// A warper on `threads` threads (default: one per core).
    public init(threads: Int = CoreCount.available) {
        self.threads = max(1, threads)
        pool = WorkerPool(threads: self.threads)
    }

    /// Warps `source`, rendered with `from`, to the camera `to`, into `target`: `setSource`
    /// then `warp(to:into:)`.
    /// - Throws: `ReprojectionError` when a framebuffer's size differs from its camera's or a
    ///   projection is not perspective.
    @discardableResult
    public func warp(_ source: Framebuffer, from: Camera, to: Camera, into target: Framebuffer) throws(ReprojectionError) -> WarpStats {
        try setSource(source, camera: from)
        return try warp(to: to, into: target)
    }

    /// Makes `frame` (rendered with `camera`) the frame later warps start from, and reads its
    /// depth range row by row. The frame is kept (not copied): its pixels must not change while
    /// it is the source — render the next frame into another framebuffer.
    /// - Throws: `ReprojectionError.sizeMismatch` when `frame` is not `camera`'s size,
    ///   `.sourceTooLarge` beyond 2²³ pixels or 16384 on a side.
    public func setSource(_ frame: Framebuffer, camera: Camera) throws(ReprojectionError) {
        try setSource(frame, camera: camera, copiesColor: false)
    }

    /// As `setSource`, but the frame's colour is copied (one pass over it): the frame may change
    /// as soon as this returns — the next frame renders into it while this one is warped to
    /// each refresh's eye (`--reproject async`).
    public func setSource(copying frame: Framebuffer, camera: Camera) throws(ReprojectionError) {
        try setSource(frame, camera: camera, copiesColor: true)
    }

    /// Whether a source is set (a warp can run).
    public var hasSource: Bool { source != nil }

    private func setSource(_ frame: Framebuffer, camera: Camera, copiesColor: Bool) throws(ReprojectionError) {
        guard frame.width == camera.width, frame.height == camera.height else {
            throw .sizeMismatch(what: "source", framebuffer: (frame.width, frame.height), camera: (camera.width, camera.height))
        }
        guard frame.pixelCount < 1 << 23, frame.width <= 16384, frame.height <= 16384 else { throw .sourceTooLarge(width: frame.width, height: frame.height) }
        if copiesColor {
            ownCopy.resize(width: frame.width, height: frame.height)
            ownCopy.color.update(from: frame.color, count: frame.pixelCount)
            source = ownCopy
        } else {
            source = frame
        }
        sourceCamera = camera
        let blocks = WarpKernel.blocks(width: frame.width)
        rowDepths.reserve(frame.height * blocks)
        rowTargets.reserve(frame.height * blocks)
        rowSpans.reserve(frame.height)
        warpDepth.reserve(frame.pixelCount)
        let words = (frame.width + 63) / 64
        finiteBits.reserve(words * frame.height); infiniteBits.reserve(words * frame.height)
        let work = RowDepthWork(depth: frame.depth, width: frame.width, height: frame.height, warpDepth: warpDepth.base,
                                out: rowDepths.base, blocks: blocks, finiteBits: finiteBits.base, infiniteBits: infiniteBits.base, words: words)
        run(.depths(work))
    }

    /// Warps the current source to the camera `to`, writing every pixel of `target`'s colour
    /// and depth (metres along `to`'s −Z; holes take their filler's depth).
    /// - Throws: `ReprojectionError` when there is no source, `target` is not `to`'s size or a
    ///   projection is not perspective.
    @discardableResult
    public func warp(to camera: Camera, into target: Framebuffer) throws(ReprojectionError) -> WarpStats {
        guard let source, let from = sourceCamera else { throw .noSource }
        guard target.width == camera.width, target.height == camera.height else {
            throw .sizeMismatch(what: "target", framebuffer: (target.width, target.height), camera: (camera.width, camera.height))
        }
        let t0 = MonotonicClock.now()
        let mapping = try WarpMapping(from: from, to: camera)
        let bounds = TargetRowBounds(mapping: mapping, sourceWidth: source.width, sourceHeight: source.height, targetHeight: target.height,
                                     depths: rowDepths.base, rows: rowTargets.base, rowSpans: rowSpans.base)
        let rows = max(1, bandRows), bands = (target.height + rows - 1) / rows
        rowHoles.reserve(target.height)
        let groups = (target.width + 7) / 8
        reachedBits.reserve(groups * target.height)
        offsets.reserve(target.pixelCount)
        let work = BandWork(source: source.color, sourceDepth: warpDepth.base, sourceWidth: source.width,
                            sourceHeight: source.height, rowTargets: rowTargets.base, rowSpans: rowSpans.base,
                            blocks: WarpKernel.blocks(width: source.width),
                            target: target.color, targetDepth: target.depth, width: target.width, height: target.height,
                            mapping: mapping, bandRows: rows, bands: bands, holes: rowHoles.base, offsets: offsets.base,
                            reached: reachedBits.base, groupsPerRow: groups,
                            background: PackedColor.pack(Vec4(camera.background.x, camera.background.y, camera.background.z, 1)))
        // Bands of at least 2·fillReach rows: a seam's rows are filled by the worker that
        // finishes its second band, in the scatter stage; else a fill stage after it.
        let seamed = rows >= 2 * BandWork.fillReach
        seams.reset(count: bands)
        run(.scatter(work, seamed: seamed, bounds: bounds))
        let t1 = MonotonicClock.now()
        if !seamed { run(.fill(work)) }
        let t2 = MonotonicClock.now()
        var stats = WarpStats()
        for y in 0..<target.height { stats.holePixels += rowHoles[y] }
        stats.scatterMs = (t1 - t0) * 1000
        stats.fillMs = (t2 - t1) * 1000
        stats.totalMs = (t2 - t0) * 1000
        lastStats = stats
        withExtendedLifetime(source) {}
        return stats
    }

    /// Runs one stage on every worker and waits.
    private func run(_ work: WarpStage) {
        stage = work
        nextItem.store(0, ordering: .relaxed)
        phaseItem.store(0, ordering: .relaxed); phaseDone.store(0, ordering: .relaxed)
        pool.run(self) { warper, worker in warper.runStage(worker: worker) }
        stage = .idle
    }

    /// Waits until `items` of the stage's first phase are done (`phaseDone`): spinning, as the
    /// other worker is at most one item behind, yielding if it was preempted mid-item.
    private func waitForPhase(items: Int) {
        var spins = 0
        while phaseDone.load(ordering: .acquiring) < items {
            spins &+= 1
            if spins > 64 { sched_yield() }
        }
    }

    private func runStage(worker: Int) {
        switch stage {
        case .idle: return
        case let .depths(w):
            // Every row measured, then (its rows' neighbours measured) dilated: one stage, with
            // the workers meeting in between instead of a second hand-off.
            let rows = (w.height + 15) / 16
            while true {
                let k = nextItem.add(1, ordering: .relaxed).oldValue
                guard k < rows else { break }
                for j in (k &* 16)..<min(w.height, k &* 16 &+ 16) { w.measure(row: j) }
                phaseDone.add(1, ordering: .releasing)
            }
            waitForPhase(items: rows)
            while true {
                let k = phaseItem.add(1, ordering: .relaxed).oldValue
                guard k < rows else { return }
                w.dilate(rows: (k &* 16)..<min(w.height, k &* 16 &+ 16))
            }
        case let .scatter(w, seamed, bounds):
            // The target rows each source row block can reach, shared out in groups of 8 rows;
            // bands read every row's, so a worker waits (spinning, briefly) until all are done.
            let groups = bounds.groups
            while true {
                let g = phaseItem.add(1, ordering: .relaxed).oldValue
                guard g < groups else { break }
                bounds.run(group: g)
                phaseDone.add(1, ordering: .releasing)
            }
            waitForPhase(items: groups)
            while true {
                let b = nextItem.add(1, ordering: .relaxed).oldValue
                guard b < w.bands else { return }
                w.scatter(band: b)
                if seamed { w.finishSeams(band: b, seams: seams.base) }
            }
        case let .fill(w):
            while true {
                let k = nextItem.add(1, ordering: .relaxed).oldValue
                guard k &* BandWork.fillRows < w.height else { return }
                w.fill(item: k)
            }
        }
    }
}

/// The stage the workers run.
enum WarpStage {
    case idle
    /// `measure` every row, then `dilate` every row.
    case depths(RowDepthWork)
    /// `seamed`: the seams' rows are filled as their bands finish (no fill stage).
    /// (After bounding the source rows' target rows with `bounds`.)
    case scatter(BandWork, seamed: Bool, bounds: TargetRowBounds)
    case fill(BandWork)
}
