// SplatLOD — StreamedLevels: a streamed SOG drawn under a splat budget, frame by frame: each
// leaf's level chosen for the camera (`LODSelector`, by visible area when the budget binds), the
// walk of what is shown towards it, the chunks streamed in (`LODChunkStore`) and the frame's splats
// assembled from them. What a viewer's scene adapter draws (`SplatLevelsOfDetail`).
import Foundation
import RenderCore
import SceneIO
import SplatRender

/// The splats a frame draws from a level-of-detail tree, and what the viewer shows of its state.
/// One protocol between the level-of-detail module and the scenes that draw it: the adapter places
/// the splats and renders `splats`; everything about levels lives behind it.
public protocol SplatLevelsOfDetail: AnyObject {
    /// The budget, forced level and thresholds in effect; may change between frames.
    var options: LODOptions { get set }
    /// One frame's choice, step, chunk requests and (when the shown levels changed) re-assembly,
    /// for `camera` in the tree's own (model) frame, measuring on `threads` threads.
    func update(camera: Camera, threads: Int)
    /// What the frame draws: valid until the next `update`.
    var splats: PreparedSplats { get }
    /// Splats `splats` holds (the last update's shown levels).
    var shownSplats: Int { get }
    /// Whether the budget limited the last update: the view wanted more splats than the budget,
    /// and the shown levels have caught up with those chosen under it (at least 90 % of their
    /// splats), so a larger budget would show more. A selection can bind well short of its
    /// budget: the next finer level of a leaf may not fit in what is left.
    var budgetBinds: Bool { get }
    /// Whether the last update decoded a still eye's levels ahead and made room for them in
    /// `splats` (`LODOptions.warmsStillView`; realtime only): whoever draws `splats` should make
    /// room ahead too, its pages faulted in on a background thread. False frame-exact, where a
    /// background fault-in would only compete with the frame that needs the pages.
    var preparesStillView: Bool { get }
    /// Whether a still eye's levels are all decoded (or failed), so that a governor may show
    /// them in one step: false only while `preparesStillView` still waits for some of them.
    /// Frame-exact, and when the still view does not fit in memory, always true (the levels then
    /// come as the refining frames ask for them).
    var stillViewReady: Bool { get }
    /// The share of a still eye's splats decoded ahead, 0…1 (1 when nothing is decoded ahead):
    /// what a HUD shows while a governor waits for `stillViewReady`.
    var stillViewProgress: Double { get }
    /// Milliseconds the last `update` spent decoding chunks on the caller's thread (frame-exact
    /// only; the window decodes on loader threads, and this is 0).
    var decodeMs: Double { get }
    /// Whether every leaf shows the level it wants and nothing it wants is still loading.
    var isSettled: Bool { get }
    /// Fraction of the wanted splats shown at their wanted level (1 when settled).
    var progress: Double { get }
    /// A line for a HUD while levels stream in or chunks are missing; nil when all is well.
    var statusLine: String? { get }
    /// Chunks that could not be read, one line each.
    var problems: [String] { get }
    /// Stops background loading (also done on deinit).
    func stop()
}

/// Level of detail for one streamed SOG, frame by frame.
///
/// Each `update`:
/// 1. `LODSelector.choose` picks each leaf's wanted level for the camera, under the budget. When
///    the budget binds, it chooses again with each leaf's visible area: `SplatVisibility` on the
///    finest level that holds at most a quarter of the budget (kept requested; coarser levels'
///    blobs spill over what lies in front and misjudge it), measured again only when the camera
///    has moved (`visibilityIsStale`). The budget then goes where the eye sees. A view held
///    still is measured once more, on the selection so chosen (`refineVisibility`).
/// 2. `LODSelector.step` moves what is shown one level per leaf towards it, using only levels
///    already in memory: a leaf whose next level is not loaded keeps its current one; a leaf with
///    nothing shown yet takes the loaded level nearest its wanted one (coarser on ties). So the
///    frame never waits for I/O (`realtime`) and a transition never pops more than one level.
/// 3. The chunks of the shown, next and wanted levels are pinned and requested from the
///    `LODChunkStore` (shown first, then next steps coarse to fine, then wanted levels; in the
///    window, last, those a moving eye will want soon: `MotionPrefetch`).
/// 4. When the shown levels changed, `splats` is re-assembled from the prepared blocks by plain
///    copies into a reused buffer (it grows, never shrinks); when they did not, nothing is copied
///    and nothing allocated.
///
/// Not `realtime` (render, bench, export): the chunks a frame needs are decoded on the frame's own
/// thread before it is drawn, and the first frame shows the wanted levels at once — so a frame
/// depends on the eye path alone. Later frames still step one level per frame.
public final class StreamedLevels: SplatLevelsOfDetail {
    public let sog: StreamedSOG
    public var options: LODOptions {
        didSet { selector.pixelThreshold = options.pixelThreshold }
    }
    public let selector: LODSelector
    let store: LODChunkStore
    /// Warnings from opening the file (missing chunks, ranges outside chunks…).
    public let openWarnings: [String]

    /// The frame's splats, re-assembled when the shown levels change.
    public var splats: PreparedSplats { assembly }
    let assembly: PreparedSplats
    /// Scratch, sized once: chunk states, pins, requests, the pairs and blocks to assemble.
    private var chunkState: [UInt8]
    /// Frame-exact: the chunks a step or a measurement needs decoded (scratch).
    private var exactLoads: [Int] = []
    private var pins: [Bool]
    private var requests: [Int]
    private var requestCount = 0
    /// Per (leaf, level) at `n * levels + l`: whether its chunk is in memory this frame.
    private var levelLoaded: [Bool]
    private var pairs: [(node: Int, level: Int)]
    private var frameBlocks: [PreparedSplats]
    private var firstFrame = true
    /// The shown levels the assembly holds (to skip re-assembly when nothing changed).
    private var assembled: [Int]
    /// Times: the last re-assembly (ms) and how many there were.
    public private(set) var lastAssemblyMs: Double = 0
    public private(set) var assemblies = 0
    /// Failures already folded into the selector.
    private var knownFailures: [Bool]
    /// What measures the visible area — every move at 1/8 of the frame's resolution, a view
    /// held still at 1/4 (`refineVisibility`) — each made on its first use, on as many threads
    /// as the frame renders with (`renderThreads`; the areas do not depend on them).
    private lazy var visibility = SplatVisibility(scale: 8, threads: renderThreads)
    private lazy var stillVisibility = SplatVisibility(scale: 4, threads: renderThreads)
    private var renderThreads = 1
    /// Visible area per leaf (camera pixels²), measured when the budget binds, its age in frames
    /// (window), and scratch.
    private var visibleArea: [Float]
    /// The camera `visibleArea` was measured for (nil: none valid), the budget it was measured
    /// under, and frames since.
    private var measuredCamera: Camera?
    private var measuredBudget = 0
    private var visibilityAge = 0
    /// Whether the current measurement has been refined with the selection it chose
    /// (`refineVisibility`), and the last frame's camera (frame-exact: a view held still).
    private var measurementRefined = false
    private var previousCamera: Camera?
    /// Chunks a moving eye will want soon, asked for after the frame's own (realtime only).
    lazy var prefetch: MotionPrefetch? = store.realtime ? MotionPrefetch(sog: sog, pixelThreshold: options.pixelThreshold) : nil
    /// Frames in a row whose camera the current measurement still stands for (window).
    private var stillFrames = 0
    /// Measurements and refinements so far (for status and tests).
    public private(set) var visibilityMeasurements = 0, visibilityRefinements = 0
    /// Frames between two measurements of the visible area in the window.
    static let visibilityInterval = 4
    /// The level the visible area is measured on for `budget`: the finest whose splats, over all
    /// leaves, number at most budget / 4 (else the coarsest). Worked out once per budget (and
    /// again when a chunk failure changes the counts), not every frame.
    func visibilityLevel(budget: Int) -> Int {
        if let cached = visibilityLevelFor, cached.budget == budget { return cached.level }
        let levels = selector.levelCount
        var level = levels - 1
        for l in 0..<levels {
            var total = 0
            for n in 0..<selector.nodeCount { total += max(0, selector.count(n, selector.nearestUsable(n, to: l) ?? -1)) }
            if total <= budget / 4 { level = l; break }
        }
        visibilityLevelFor = (budget, level)
        return level
    }
    private var visibilityLevelFor: (budget: Int, level: Int)?
    private var blockArea: [Float]
    private var visiblePairs: [(node: Int, level: Int)]
    private var visibleBlocks: [PreparedSplats]

    /// Levels of detail for `sog`. `realtime` streams on a background thread (the window);
    /// otherwise chunks load on the updating thread (deterministic frames).
    public init(sog: StreamedSOG, options: LODOptions = LODOptions(), realtime: Bool) {
        self.sog = sog
        self.options = options
        selector = LODSelector(sog)
        selector.pixelThreshold = options.pixelThreshold
        store = LODChunkStore(sog: sog, cacheBytes: options.cacheBytes, realtime: realtime,
                              preparedFolder: LODCache.preparedFolder(forTree: sog.file))
        openWarnings = sog.warnings
        assembly = PreparedSplats(assemblyCapacity: min(sog.splatCount(level: 0), options.budget ?? Int.max) + 8 * sog.nodes.count,
                                  shDegree: sog.shDegree)
        assembly.keepsDepthOrder = false   // its contents change with the levels: frames sort per tile
        let chunks = sog.chunks.count, nodes = sog.nodes.count
        chunkState = [UInt8](repeating: 0, count: chunks)
        pins = [Bool](repeating: false, count: chunks)
        requests = [Int](repeating: 0, count: chunks)
        pairs = []; pairs.reserveCapacity(nodes)
        frameBlocks = []; frameBlocks.reserveCapacity(nodes)
        assembled = [Int](repeating: -1, count: nodes)
        levelLoaded = [Bool](repeating: false, count: nodes * sog.levelCount)
        knownFailures = sog.chunks.map { $0.problem != nil }
        visibleArea = [Float](repeating: 0, count: nodes)
        blockArea = [Float](repeating: 0, count: nodes)
        visiblePairs = []; visiblePairs.reserveCapacity(nodes)
        visibleBlocks = []; visibleBlocks.reserveCapacity(nodes)
    }

    deinit { store.stop() }

    /// Splats drawn by the last frame.
    public var shownSplats: Int { selector.shownSplats }

    public var budgetBinds: Bool { selector.budgetBound && selector.shownSplats * 10 >= selector.wantedSplats * 9 }

    public private(set) var preparesStillView = false
    public private(set) var stillViewReady = true
    public private(set) var stillViewProgress = 1.0

    /// Whether the loader streams on a background thread (the window).
    public var realtime: Bool { store.realtime }

    /// Stops the background loader.
    public func stop() { store.stop() }

    public func update(camera: Camera, threads: Int) {
        renderThreads = threads
        decodeMs = 0
        update(camera: camera)
    }

    public private(set) var decodeMs: Double = 0

    /// Decodes `chunks` now (frame-exact), counting the time in `decodeMs`.
    private func loadExact(_ chunks: [Int]) {
        guard !chunks.isEmpty else { return }
        let t = MonotonicClock.now()
        store.load(chunks)
        decodeMs += (MonotonicClock.now() - t) * 1000
    }

    /// One frame's choice, step, requests and (when the shown levels changed) re-assembly.
    func update(camera: Camera) {
        let nodes = selector.nodeCount, levels = selector.levelCount
        store.snapshot(into: &chunkState)
        foldFailures()
        if options.spendsBudgetByVisibleArea, options.forcedLevel == nil, selector.budgetBinds(camera: camera, budget: options.budget) {
            // When the budget binds it is spent by visible area (`LODSelector`), measured again
            // only when the camera has moved (`visibilityIsStale`) — and in the window at most
            // every `visibilityInterval` frames; the choice itself follows the camera every frame.
            visibilityAge += 1
            let stale = visibilityIsStale(camera)
            stillFrames = stale ? 0 : stillFrames + 1
            if stale && (!store.realtime || visibilityAge >= Self.visibilityInterval || measuredCamera == nil) {
                measuredCamera = measureVisibility(camera: camera) ? camera : nil
                measurementRefined = false
                visibilityAge = 0
            }
            selector.choose(camera: camera, budget: options.budget, forced: nil, visibleArea: measuredCamera != nil ? visibleArea : nil)
            // A view held still gets the second measurement once (`refineVisibility`): in the
            // window when the camera has stayed `visibilityInterval` frames in a row where the
            // measurement still stands for it; frame-exact on the first frame (a `render`) and
            // when the camera is the last frame's.
            let still = store.realtime ? stillFrames >= Self.visibilityInterval : (firstFrame || camera == previousCamera)
            if measuredCamera != nil, !measurementRefined, still, refineVisibility(camera: camera) {
                measurementRefined = true
                selector.choose(camera: camera, budget: options.budget, forced: nil, visibleArea: visibleArea)
            }
        } else {
            selector.choose(camera: camera, budget: options.budget, forced: options.forcedLevel)
            measuredCamera = nil
        }
        let budget = options.forcedLevel == nil ? options.budget : nil
        previousCamera = camera
        // Shown well over the budget (it fell): coarsen at once rather than a level a frame.
        let shed = budget.map { selector.shownSplats > $0 + $0 / 4 } ?? false

        if !store.realtime {
            // Frame-exact: decode what this frame's step needs first (all wanted levels on the
            // first frame), side by side, before the frame goes on.
            exactLoads.removeAll(keepingCapacity: true)
            for n in 0..<nodes {
                let w = selector.wanted[n], s = selector.shown[n]
                guard w >= 0 else { continue }
                var target = w
                if !firstFrame && !options.refinesAtOnce && s >= 0 && s != w && !(shed && s < w) {
                    target = selector.next(n, from: s, s < w ? 1 : -1) ?? w
                }
                let c = store.chunk(node: n, level: target)
                if c >= 0 && chunkState[c] == 0 { exactLoads.append(c) }
            }
            loadExact(exactLoads)
            store.snapshot(into: &chunkState)
            foldFailures()
        }
        for n in 0..<nodes {
            for l in 0..<levels {
                let c = store.chunk(node: n, level: l)
                levelLoaded[n * levels + l] = c >= 0 && chunkState[c] == 1
            }
        }
        selector.step(budget: budget, immediate: (firstFrame && !store.realtime) || options.refinesAtOnce, coarsenAtOnce: shed,
                      loadedLevels: levelLoaded)
        firstFrame = false

        // Requests, most urgent first: shown levels (kept), nothing-shown leaves' coarsest level,
        // next steps coarse to fine, then the wanted levels; everything requested is pinned.
        for c in pins.indices { pins[c] = false }
        requestCount = 0
        for n in 0..<nodes where selector.shown[n] >= 0 { addRequest(store.chunk(node: n, level: selector.shown[n])) }
        for n in 0..<nodes where selector.shown[n] < 0 {
            if let c = selector.coarsest(n) { addRequest(store.chunk(node: n, level: c)) }
        }
        if options.spendsBudgetByVisibleArea, let budget = options.budget, options.forcedLevel == nil {
            // The level that measures what the eye sees when the budget binds.
            let level = visibilityLevel(budget: budget)
            for n in 0..<nodes { if let c = selector.nearestUsable(n, to: level) { addRequest(store.chunk(node: n, level: c)) } }
        }
        // (Refining at once: no level in between; the wanted levels come next.)
        for level in stride(from: levels - 1, through: 0, by: -1) where !options.refinesAtOnce {
            for n in 0..<nodes {
                let s = selector.shown[n], w = selector.wanted[n]
                guard s >= 0, w >= 0, s != w, selector.next(n, from: s, s < w ? 1 : -1) == level else { continue }
                addRequest(store.chunk(node: n, level: level))
            }
        }
        for n in 0..<nodes where selector.wanted[n] >= 0 { addRequest(store.chunk(node: n, level: selector.wanted[n])) }
        // Last: what a moving eye will want soon (`MotionPrefetch`; the window only).
        if let prefetch {
            for c in prefetch.chunks(camera: camera, budget: budget, forced: options.forcedLevel, pixelThreshold: options.pixelThreshold,
                                     chunk: { [store] n, l in store.chunk(node: n, level: l) }) { addRequest(c) }
        }
        // Last of all, the still eye's levels (`warmsStillView`): decoded while nothing else waits,
        // and room made for them in the assembly (and so in the renderer: `LODSplatScene`), its
        // pages faulted in on a background thread.
        preparesStillView = store.realtime && options.warmsStillView && options.forcedLevel == nil && budget != nil
            && selector.unbudgetedSplats <= LODMemory.ceiling(sog: sog, cacheBytes: options.cacheBytes)
        stillViewReady = true
        stillViewProgress = 1
        if preparesStillView {
            var decoded = 0, all = 0
            for n in 0..<nodes where selector.unbudgetedWanted[n] >= 0 {
                let l = selector.unbudgetedWanted[n], c = store.chunk(node: n, level: l)
                addRequest(c)
                all += selector.count(n, l)
                if c >= 0 && chunkState[c] == 0 { stillViewReady = false } else { decoded += selector.count(n, l) }
            }
            stillViewProgress = all > 0 ? Double(decoded) / Double(all) : 1
            assembly.reserveAssembly(selector.unbudgetedSplats + 7 * nodes, prefault: true)
        }
        store.request(requests[0..<requestCount], pins: pins)

        // Re-assemble only when the shown levels changed.
        if assembled != selector.shown {
            let t = MonotonicClock.now()
            pairs.removeAll(keepingCapacity: true)
            for n in 0..<nodes where selector.shown[n] >= 0 { pairs.append((n, selector.shown[n])) }
            frameBlocks.removeAll(keepingCapacity: true)
            store.blocks(pairs[...], into: &frameBlocks)
            assembly.assemble(frameBlocks)
            frameBlocks.removeAll(keepingCapacity: true)
            for n in 0..<nodes { assembled[n] = selector.shown[n] }
            lastAssemblyMs = (MonotonicClock.now() - t) * 1000
            assemblies += 1
        }
    }

    /// Whether `visibleArea` no longer stands for `camera`: nothing measured, another budget or
    /// image size, the eye moved by more than 2 % of its distance to the capture's centre, the
    /// view turned by more than ~0.6°, or the projection changed by more than 1 %. A function of
    /// the cameras alone, so frame-exact frames still depend on the eye path only.
    private func visibilityIsStale(_ camera: Camera) -> Bool {
        guard let m = measuredCamera, m.width == camera.width, m.height == camera.height,
              measuredBudget == options.budget ?? 0 else { return true }
        let eye = camera.position
        let distance = max((eye - sceneCentre).length, 1e-6)
        if (eye - m.position).length > 0.02 * distance { return true }
        for r in 0..<3 {
            for c in 0..<3 where abs(camera.view[r, c] - m.view[r, c]) > 0.01 { return true }
        }
        @inline(__always) func moved(_ r: Int, _ c: Int) -> Bool {
            let a = camera.projection[r, c], b = m.projection[r, c]
            return abs(a - b) > 0.01 * max(1, abs(b))
        }
        if moved(0, 0) || moved(1, 1) || moved(0, 2) || moved(1, 2) { return true }
        return false
    }

    /// Centre of the leaves' boxes (model space).
    private lazy var sceneCentre: Vec3 = sog.bounds.isEmpty ? .zero : (sog.bounds.min + sog.bounds.max) * 0.5

    /// Measures each leaf's visible area (`visibleArea`) on the level `visibilityLevel` picks.
    /// Frame-exact: decodes those chunks first. Realtime: false (nothing measured) while one of
    /// them is not in memory.
    private func measureVisibility(camera: Camera) -> Bool {
        measuredBudget = options.budget ?? 0
        let level = visibilityLevel(budget: options.budget ?? 0)
        guard measure(camera: camera, with: visibility, level: { [selector] n in selector.nearestUsable(n, to: level) }) else { return false }
        for n in 0..<selector.nodeCount { visibleArea[n] = 0 }
        for (k, p) in visiblePairs.enumerated() { visibleArea[p.node] = blockArea[k] }
        visibilityMeasurements += 1
        return true
    }

    /// The second measurement of a view held still: the selection the first one chose, each
    /// leaf at its wanted level, each leaf's area raised to the larger of the two. The measuring
    /// level (a quarter of the budget) draws the leaves in front in blobs that spill over what
    /// lies behind, and a leaf chosen fine shows more than its coarse blobs said; measured in
    /// its chosen splats it gets its due. At 1/4 of the frame's resolution, not 1/8: the fine
    /// selection's small splats want the finer image (at 1/8 the far 250k playbot views lost up to
    /// 0.45 dB; at 1/4 every playbot and room cell gains or holds, Docs/LevelOfDetail.md).
    /// Costs a measurement of the whole selection (~the budget's splats), so it waits for a view
    /// held still instead of running on every move. False when a wanted level is not in memory.
    private func refineVisibility(camera: Camera) -> Bool {
        guard measure(camera: camera, with: stillVisibility, level: { [selector] n in selector.wanted[n] >= 0 ? selector.wanted[n] : nil }) else {
            return false
        }
        for (k, p) in visiblePairs.enumerated() { visibleArea[p.node] = max(visibleArea[p.node], blockArea[k]) }
        visibilityRefinements += 1
        return true
    }

    /// Measures with `visibility` the visible area of every leaf drawn at `level(n)` (nil: left
    /// out) into `blockArea`, one entry per `visiblePairs` entry. Frame-exact: decodes the chunks first;
    /// realtime: false while one of them is not in memory.
    private func measure(camera: Camera, with visibility: SplatVisibility, level: (Int) -> Int?) -> Bool {
        visiblePairs.removeAll(keepingCapacity: true)
        exactLoads.removeAll(keepingCapacity: true)
        for n in 0..<selector.nodeCount {
            guard let l = level(n) else { continue }
            let chunk = store.chunk(node: n, level: l)
            if !store.realtime && chunk >= 0 && chunkState[chunk] == 0 { exactLoads.append(chunk) }
            visiblePairs.append((n, l))
        }
        loadExact(exactLoads)
        visibleBlocks.removeAll(keepingCapacity: true)
        store.blocks(visiblePairs[...], into: &visibleBlocks)
        // A level that failed to load since the choice was made, or one still streaming in.
        guard visibleBlocks.count == visiblePairs.count else { visibleBlocks.removeAll(keepingCapacity: true); return false }
        visibility.measure(visibleBlocks, camera: camera, into: &blockArea)
        visibleBlocks.removeAll(keepingCapacity: true)
        return true
    }

    /// Pins chunk `c` and appends it to this frame's requests (once).
    private func addRequest(_ c: Int) {
        guard c >= 0, !pins[c] else { return }
        pins[c] = true
        requests[requestCount] = c
        requestCount += 1
    }

    /// Marks levels of chunks that failed since the last frame as unusable.
    private func foldFailures() {
        for c in chunkState.indices where chunkState[c] == 2 && !knownFailures[c] {
            knownFailures[c] = true
            selector.markUnusable(chunk: c, in: sog)
            visibilityLevelFor = nil
        }
    }

    // MARK: - Status

    /// Chunks that could not be read (missing, unreadable, ranges outside), one line each.
    public var problems: [String] {
        var out = openWarnings
        for (c, f) in store.failures.enumerated() where f != nil && sog.chunks[c].problem == nil { out.append(f!) }
        return out
    }

    /// Whether every leaf shows the level it wants and nothing it wants is still loading.
    public var isSettled: Bool { selector.shown == selector.wanted }

    /// Fraction of the wanted splats that are shown at their wanted level (1 when settled).
    public var progress: Double {
        let want = selector.wantedSplats
        guard want > 0 else { return 1 }
        var have = 0
        for n in 0..<selector.nodeCount where selector.shown[n] == selector.wanted[n] { have += max(0, selector.count(n, selector.shown[n])) }
        return Double(have) / Double(want)
    }

    /// A line for the window's HUD while the scene streams in or when chunks are missing; nil when
    /// there is nothing to say. E.g. `LOD: loading 0_0/meta.json — 38 % of 372,000 wanted splats shown
    /// (1 chunk pending) · 1 chunk unavailable: 4_0/meta.json`.
    public var statusLine: String? {
        var parts: [String] = []
        if !isSettled {
            let p = store.progress()
            var s = "LOD: "
            if let c = p.loading { s += "loading \(sog.chunks[c].name) — " }
            s += String(format: "%.0f %% of %d wanted splats shown", progress * 100, selector.wantedSplats)
            if p.pending > 0 { s += " (\(p.pending) chunk\(p.pending == 1 ? "" : "s") pending)" }
            parts.append(s)
        }
        let missing = sog.chunks.indices.filter { c in
            sog.chunks[c].level != nil && (sog.chunks[c].problem != nil || knownFailures[c])
        }
        if !missing.isEmpty {
            parts.append("\(missing.count) chunk\(missing.count == 1 ? "" : "s") unavailable: "
                         + missing.prefix(3).map { sog.chunks[$0].name }.joined(separator: ", ") + (missing.count > 3 ? ", …" : ""))
        }
        return parts.isEmpty ? nil : parts.joined(separator: " · ")
    }

    /// The shown level of each leaf, e.g. "L3 L3" (tests, logs).
    public var shownLevels: [Int] { selector.shown }
    public var wantedLevels: [Int] { selector.wanted }
}
