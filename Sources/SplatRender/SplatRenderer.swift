// SplatRenderer — the fast CPU Gaussian-splat renderer (3DGS reference semantics).
//
// Stages, one function each (like diff-gaussian-rasterization's forward pass):
//   preprocess  every splat in parallel: cull, 2D covariance, SH colour, conic, radius, rect;
//               a 48-byte record per visible splat, plus its depth key and tile rectangle
//   bin         tile counts (taken by preprocessing) → tile ranges, append a (depth, slot)
//               pair to every tile the splat touches (8 bytes per pair)
//   sort        each tile's pairs by depth, stable (tiles in parallel, in cache)
//               — bin + sort is a stable sort by the 64-bit (tile, depth) key; while only the eye
//               translates, binning walks a depth order the splats keep and the sort only
//               repairs the tiles it marked (`SplatDepthOrder`, `PresortedBinWork`)
//   blend       per 16×16 tile, front to back (records read by slot, prefetched): 8-lane
//               windows, or with AVX-512 4×4-pixel blocks held in registers; early stop
// Work is split over a fixed `WorkerPool`; every buffer lives in the renderer and is reused,
// so a steady state allocates nothing. Output bytes do not depend on the thread count.
import Synchronization
import Foundation
import RenderCore
import Workers

/// Renders splats into a `Framebuffer` on the CPU with the 3DGS reference semantics
/// (see `ReferenceSplatRenderer` in TestSupport for the contract, written out slowly).
///
/// Use one renderer per output stream (it owns its scratch memory and threads; `render` is
/// not re-entrant). Typical use:
///
///     let splats = SplatRenderer.prepare(cloud)        // once per scene
///     let renderer = SplatRenderer(threads: 2)          // once
///     let times = renderer.render(splats, camera: cam, into: framebuffer)   // per frame
public final class SplatRenderer {
    /// Number of worker threads (the calling thread included).
    public let threads: Int
    /// Mip-Splatting-style opacity compensation for the +0.3 px² dilation (off by default:
    /// the 3DGS reference does not do it). Scales opacity by sqrt(det(Σ₂D) / det(Σ₂D + 0.3·I)).
    public var antialias = false
    /// Whether `render` writes the framebuffer's depth (the depth where accumulated opacity
    /// first exceeds ½). True by default; an interactive viewer that never reads splat
    /// depth can turn it off to save ~8 % of the frame time — the depth buffer is then left
    /// as it was (still read when `depthTest` is true).
    public var writesDepth = true
    /// Memory guard: the most (tile, splat) pairs one frame may bin (16 bytes each with the
    /// sort's scratch; the default 2²⁶ ≈ 1 GB). A frame over budget — the eye inside a dense
    /// cloud, every splat covering hundreds of tiles — keeps the nearest splats that fit and
    /// reports the rest in `SplatStageTimes.droppedSplats` instead of exhausting memory.
    public var maxTileSplatPairs = 1 << 26
    /// Asked while a frame is drawn, from the workers (between preprocess chunks and blend tile
    /// claims, so a few milliseconds apart at most): true abandons the frame. `render` then
    /// returns early with `SplatStageTimes.abandoned` set and the target partly drawn (not to
    /// be shown). The window sets it for a still eye's long, whole-capture frame, to be dropped
    /// the moment the eye moves. Must be cheap and thread-safe; nil (the default) never abandons.
    public var abandonCheck: (@Sendable () -> Bool)?
    /// Whether a worker found `abandonCheck` true during the current frame.
    let abandoned = Atomic<Bool>(false)
    /// Whether frames may bin from a depth order the splats keep while the view's rotation stays
    /// the same (`SplatDepthOrder`: made on the second frame with a rotation, ~10 ms per million
    /// splats, then the per-tile sort only repairs the few tiles whose lists are out of order).
    /// True by default; false sorts every tile every frame. Both give the same bytes.
    public var reusesDepthOrder = true
    /// The blend kernel (`BlendKernel.native` by default; both give the same bytes).
    public var blendKernel = BlendKernel.native
    /// Whether kernels may take their AVX-512 compile where the CPU has it (true by default;
    /// false runs the build's baseline compile everywhere — the same bytes).
    public var allowsAVX512 = true

    /// The instruction set the blend kernel runs with: AVX-512 for the block kernel where
    /// allowed and available (`CPUDispatch`), else the build's baseline.
    public var blendInstructionSet: KernelInstructionSet {
        CPUDispatch.instructionSet(for: blendKernel, allowsAVX512: allowsAVX512)
    }

    let pool: WorkerPool<SplatRenderer>
    /// The stage the workers are running (set by `runParallel`).
    var stageWork = StageWork.idle
    // Per-frame scratch, reused (see each stage for its meaning).
    let projected = ScratchBuffer<ProjectedSplat>()
    let keysA = ScratchBuffer<UInt32>()
    let tileRects = ScratchBuffer<TileRect>()
    let slotSource = ScratchBuffer<UInt32>()
    let histogram = ScratchBuffer<Int32>()
    let budgetHistogram = ScratchBuffer<Int>()
    let tileCounts = ScratchBuffer<Int32>()
    /// Per worker, the right/below/below-right counters of tile counting (`BinWork.countTiles`).
    let tileSpanCounts = ScratchBuffer<Int32>()
    let tileStart = ScratchBuffer<Int32>()
    let pairsA = ScratchBuffer<TilePair>(), pairsB = ScratchBuffer<TilePair>()
    let binEntries = ScratchBuffer<BinEntry>()
    /// Per worker and tile, its write cursor and run start, and whether a key came out of order
    /// (`PresortedBinWork`).
    let tileRuns = ScratchBuffer<SIMD2<Int32>>(), tileDisorder = ScratchBuffer<UInt8>()
    let chunkVisible = ScratchBuffer<Int>()
    let chunkOwner = ScratchBuffer<Int32>()
    let preprocessScratch = ScratchBuffer<SIMD8<Float>>()
    /// Vectors of `preprocessScratch` per worker: a group's 14 field vectors, then room for
    /// its 8 transposed records (12 vectors) and tile rectangles (2).
    static let preprocessScratchVectors = 32
    /// Every worker's blend scratch (`blendScratchBytes`; 64-byte aligned: a state row is one cache line).
    let blendScratch = ScratchBuffer<SIMD16<Float>>()
    let nextTile = Atomic<Int>(0)
    let nextChunk = Atomic<Int>(0)

    /// Creates a renderer with `threads` workers (default: one per active core).
    public init(threads: Int = ProcessInfo.processInfo.activeProcessorCount) {
        self.threads = max(1, threads)
        pool = WorkerPool<SplatRenderer>(threads: self.threads)
        blendScratch.reserve(self.threads * Self.blendScratchBytes / MemoryLayout<SIMD16<Float>>.stride)
        preprocessScratch.reserve(self.threads * Self.preprocessScratchVectors)
    }

    /// Converts a cloud once into the compact form `render` reads (see `PreparedSplats`).
    public static func prepare(_ cloud: SplatCloud) -> PreparedSplats { PreparedSplats(cloud) }

    /// Renders `splats` as seen by `camera` into `target` (resized to the camera's size if
    /// it differs), writing colour (8-bit RGBA, alpha 255) and depth (camera-space metres
    /// along −Z of the splat where accumulated opacity first exceeds ½, else +inf).
    ///
    /// - Parameter depthTest: when true, the target's existing depth and colour (e.g. a mesh
    ///   room drawn first) are kept: splat contributions at or behind the existing depth are
    ///   ignored and the splats are composited over the existing colour instead of the
    ///   camera's background; depth is replaced only where splats reach ½ opacity in front.
    /// - Returns: per-stage wall-clock times in milliseconds.
    @discardableResult
    public func render(_ splats: PreparedSplats, camera: Camera, into target: Framebuffer,
                       depthTest: Bool = false) -> SplatStageTimes {
        if target.width != camera.width || target.height != camera.height {
            target.resize(width: camera.width, height: camera.height)
        }
        var times = SplatStageTimes()
        let setup = FrameSetup(camera: camera, antialias: antialias)
        var t0 = DispatchTime.now().uptimeNanoseconds
        func lap() -> Double {
            let t1 = DispatchTime.now().uptimeNanoseconds
            defer { t0 = t1 }
            return Double(t1 - t0) / 1e6
        }
        let tilesX = (setup.width + SplatTunables.tileSize - 1) >> SplatTunables.tileShift
        let tilesY = (setup.height + SplatTunables.tileSize - 1) >> SplatTunables.tileShift
        abandoned.store(false, ordering: .relaxed)
        // Made (once, on the second frame with this rotation) or kept: see `SplatDepthOrder`.
        let order = reusesDepthOrder ? splats.depthOrder(forRow: SIMD3(setup.v20, setup.v21, setup.v22)) : nil
        let ordering = lap()
        let (chunks, visible) = preprocess(splats, setup: setup, tilesX: tilesX, tilesY: tilesY, presorted: order != nil)
        times.preprocess = lap()
        if abandoned.load(ordering: .relaxed) { times.abandoned = true; return times }
        let (pairs, binned, presorted) = binTiles(chunks: chunks, visible: visible, tilesX: tilesX, tilesY: tilesY,
                                                  order: order)
        times.bin = lap()
        sortTiles(tilesX: tilesX, tilesY: tilesY, presorted: presorted)
        times.sort = ordering + lap()
        times.presorted = presorted
        blend(tilesX: tilesX, tilesY: tilesY, setup: setup, background: camera.background,
              target: target, depthTest: depthTest, writeDepth: writesDepth)
        times.blend = lap()
        times.abandoned = abandoned.load(ordering: .relaxed)
        times.visibleSplats = visible
        times.tileSplatPairs = pairs
        times.droppedSplats = visible - binned
        return times
    }

    /// Convenience: prepares `cloud` on every call (allocates; prefer `prepare` once and
    /// the `PreparedSplats` overload per frame).
    @discardableResult
    public func render(_ cloud: SplatCloud, camera: Camera, into target: Framebuffer,
                       depthTest: Bool = false) -> SplatStageTimes {
        render(PreparedSplats(cloud), camera: camera, into: target, depthTest: depthTest)
    }

    /// The `w`-th of `workers` contiguous chunks of `0..<n`.
    @inline(__always)
    static func chunk(_ w: Int, _ workers: Int, _ n: Int) -> Range<Int> {
        (n * w / workers)..<(n * (w + 1) / workers)
    }

    /// Bytes of the buffers `reserve(splats:)` keeps per splat (projection, sort key, tile
    /// rectangle, source slot); the tile pairs, which scale with the pixels covered, are not counted.
    public static let bytesPerReservedSplat = MemoryLayout<ProjectedSplat>.stride + MemoryLayout<UInt32>.stride
        + MemoryLayout<TileRect>.stride + MemoryLayout<UInt32>.stride

    /// Makes room now for frames of up to `splats` splats (the buffers that scale with the splat
    /// count), so that a scene whose count varies under a known bound — a level-of-detail
    /// budget — allocates nothing when a later frame shows more. Cheap when already reserved.
    /// `prefault`: when a buffer grew, its pages are faulted in on a background thread
    /// (`MemoryPrefault`), so that the first frame to fill it does not pay for them (a still eye's
    /// whole 4M-splat frame: ~250 MB).
    public func reserve(splats n: Int, prefault: Bool = false) {
        let chunks = (n + SplatTunables.preprocessChunk - 1) / SplatTunables.preprocessChunk
        let before = projected.capacity
        projected.reserve(max(1, n)); keysA.reserve(max(1, n))
        tileRects.reserve(max(1, n)); slotSource.reserve(max(1, n))
        binEntries.reserve(max(8, (n + 7) / 8 * 8))
        chunkVisible.reserve(max(1, chunks)); chunkOwner.reserve(max(1, chunks))
        if prefault && projected.capacity > before {
            MemoryPrefault.populateInBackground([projected.region, keysA.region, tileRects.region, slotSource.region, binEntries.region])
        }
    }

    /// Whether the frame is to be abandoned: already found so, or `abandonCheck` says so now
    /// (workers, between pieces of work).
    @inline(__always)
    func shouldAbandon() -> Bool {
        guard let check = abandonCheck else { return false }
        if abandoned.load(ordering: .relaxed) { return true }
        if check() { abandoned.store(true, ordering: .relaxed); return true }
        return false
    }

    /// Runs one stage on every worker and waits (no allocation: see `WorkerPool`).
    func runParallel(_ work: StageWork) {
        stageWork = work
        pool.run(self, runSplatStage)
        stageWork = .idle
    }
}

/// One parallel stage's inputs (stored inline in the renderer while it runs).
enum StageWork {
    case idle
    case preprocess(PreprocessWork)
    case binCount(BinWork), binScatter(BinWork)
    case presortedCount(PresortedBinWork), presortedScatter(PresortedBinWork)
    case tileSort(TileSortWork)
    case blend(BlendWork)
}

/// The workers' entry point: a plain function, so passing it to the pool captures nothing.
func runSplatStage(_ r: SplatRenderer, _ w: Int) {
    switch r.stageWork {
    case .idle: break
    case .preprocess(let j): j.run(w, r)
    case .binCount(let j): j.count(w)
    case .binScatter(let j): j.scatter(w)
    case .presortedCount(let j): j.count(w)
    case .presortedScatter(let j): j.scatter(w)
    case .tileSort(let j): j.run(w, r)
    case .blend(let j): j.run(w, r)
    }
}
