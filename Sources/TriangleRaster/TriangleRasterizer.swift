import CSIMD
import Synchronization
import RenderCore
import Workers

/// Time spent in each stage of the last draw, in milliseconds, and triangle counts.
public struct RasterStats: Sendable, Equatable {
    /// Vertex transform.
    public var vertexMs: Double = 0
    /// Clipping, setup and tile binning.
    public var setupMs: Double = 0
    /// Per-tile rasterization and shading.
    public var rasterMs: Double = 0
    /// Triangles submitted.
    public var trianglesIn = 0
    /// Triangles that reached the rasterizer (after culling and clipping).
    public var trianglesSetUp = 0

    public init() {}

    /// Accumulates another draw's stats.
    public static func += (a: inout RasterStats, b: RasterStats) {
        a.vertexMs += b.vertexMs; a.setupMs += b.setupMs; a.rasterMs += b.rasterMs
        a.trianglesIn += b.trianglesIn; a.trianglesSetUp += b.trianglesSetUp
    }
}

/// The CPU triangle rasterizer.
///
/// `draw` runs three parallel stages on a fixed `WorkerPool`: vertex transform (which also
/// snaps each vertex to the viewport once, see `ScreenVertex`), setup and
/// binning (per run of 2048 triangles: homogeneous clipping, culling, fixed-point edge
/// functions, attribute planes, counting-sort into 64×64 tiles), and per-tile rasterization
/// (triangles in submission order, so output does not depend on the thread count). Workers
/// claim items through an atomic counter. Buffers grow to the largest draw seen and are then
/// reused, and stages are handed to the pool without closures: no allocation per frame in
/// steady state.
public final class TriangleRasterizer {
    /// Number of threads the stages run on (including the caller).
    public let threads: Int
    /// Culling and lighting options.
    public var settings: RasterSettings

    private let pool: WorkerPool<TriangleRasterizer>
    fileprivate var stage: RasterStage = .idle
    fileprivate let nextItem = Atomic<Int>(0)

    private let vertices = ScratchBuffer<ClipVertex>()
    private let screenVertices = ScratchBuffer<ScreenVertex>()
    /// Setup chunks, one per work item; the first `chunkCount` are initialised (they own buffers).
    private let chunkBuffer = ScratchBuffer<SetupChunk>()
    private var chunkCount = 0
    fileprivate var chunks: UnsafeMutablePointer<SetupChunk> { chunkBuffer.base }
    private let workItems = ScratchBuffer<WorkItem>(capacity: 64)
    private let materialStates = ScratchBuffer<MaterialState>()
    /// Two 16-vertex clipping buffers per worker.
    private let clipScratch: ScratchBuffer<ClipVertex>
    fileprivate var clipBuffers: UnsafeMutablePointer<ClipVertex> { clipScratch.base }
    /// Per work item (`RasterSettings.setupChunk` each): its triangles that survive culling.
    private let survivors = ScratchBuffer<Int32>()
    /// Every chunk's setups, at offsets summed from the culling pass's bounds.
    private let setups = ScratchBuffer<TriangleSetup>()
    /// The draw's tile entries, shared by the chunks (see `DrawArena`).
    private let entryArena = DrawArena<Int32>()

    /// Creates a rasterizer with its own pool of `threads` threads (default: one per core).
    public init(threads: Int = CoreCount.available, settings: RasterSettings = RasterSettings()) {
        self.threads = max(1, threads)
        self.settings = settings
        pool = WorkerPool(threads: self.threads)
        clipScratch = ScratchBuffer(capacity: 32 * self.threads)
    }

    deinit {
        for i in 0..<chunkCount { chunks[i].free() }
    }

    /// Draws `mesh` transformed by `model` (model → world) as seen by `camera` into `target`,
    /// depth-testing against what is already there (LESS on camera-space depth).
    /// - Precondition: `target` is `camera.width`×`camera.height`.
    @discardableResult
    public func draw(_ mesh: TriangleMesh, model: Matrix4 = .identity, camera: Camera, into target: Framebuffer) -> RasterStats {
        var stats = RasterStats()
        stats.trianglesIn = mesh.triangleCount
        guard mesh.triangleCount > 0, mesh.vertexCount > 0 else { return stats }
        let t0 = MonotonicClock.now()
        let width = target.width, height = target.height
        let builder = TriangleSetupBuilder(width: width, height: height, settings: settings)
        transformVertices(mesh, model: model, camera: camera, builder: builder)
        let t1 = MonotonicClock.now()

        // Work items: runs of triangles within a material group.
        var itemCount = 0
        func addGroup(first: Int, count: Int, material: Int) {
            let end = min(mesh.triangleCount, first + count)
            var s = max(0, first)
            while s < end {
                let n = min(RasterSettings.setupChunk, end - s)
                workItems.reserve(itemCount + 1, preserving: itemCount)
                workItems[itemCount] = WorkItem(first: s, count: n, material: Int32(material))
                itemCount += 1
                s += n
            }
        }
        if mesh.groups.isEmpty {
            addGroup(first: 0, count: mesh.triangleCount, material: 0)   // (effectiveGroups would allocate)
        } else {
            for g in mesh.groups { addGroup(first: g.firstTriangle, count: g.triangleCount, material: g.material) }
        }
        ensureChunks(itemCount)
        let materialCount = ensureMaterials(mesh)
        if entryArena.needsToGrow {
            // The grown arena will hold every chunk: free the fallback storage first, so the
            // two are not held at once.
            for c in 0..<chunkCount { chunks[c].releaseOwnStorage() }
        }
        entryArena.reset()
        let survivorLists = survivors.reserve(itemCount * RasterSettings.setupChunk)

        let tilesX = (width + RasterSettings.tileSize - 1) >> RasterSettings.tileShift
        let tilesY = (height + RasterSettings.tileSize - 1) >> RasterSettings.tileShift
        mesh.indices.withUnsafeBufferPointer { idx in
            // Cull first, so each chunk's setups get an exact place in one buffer sized for
            // this draw (grown by half again when a view needs more: no per-chunk storage).
            run(.cull(CullWork(indices: idx.baseAddress!, vertexCount: mesh.vertexCount, screen: screenVertices.base,
                               items: workItems.base, itemCount: itemCount, builder: builder, survivors: survivorLists)))
            var total = 0
            for i in 0..<itemCount { workItems[i].setupOffset = total; total += workItems[i].setupBound }
            if total > setups.capacity { setups.reserve(total + total / 2) }
            run(.setup(SetupWork(indices: idx.baseAddress!, vertices: vertices.base, screen: screenVertices.base,
                                 setups: setups.base, entryArena: entryArena, items: workItems.base, itemCount: itemCount,
                                 chunks: chunks, builder: builder, survivors: survivorLists,
                                 tilesX: tilesX, tilesY: tilesY, materialCount: Int32(materialCount))))
        }
        let t2 = MonotonicClock.now()

        let l = settings.lighting
        run(.tiles(TileWork(chunks: chunks, chunkCount: itemCount, tilesX: tilesX, tilesY: tilesY, width: width, height: height,
                            target: RasterTarget(color: target.color, depth: target.depth, width: width),
                            materials: materialStates.base,
                            light: LightState(direction: l.direction, ambient: l.ambient, diffuse: l.diffuse))))
        let t3 = MonotonicClock.now()
        for c in 0..<itemCount { stats.trianglesSetUp += chunks[c].count }
        stats.vertexMs = (t1 - t0) * 1000
        stats.setupMs = (t2 - t1) * 1000
        stats.rasterMs = (t3 - t2) * 1000
        withExtendedLifetime(mesh) {}
        return stats
    }

    /// Fills `target`'s colour with `color` (packed RGBA) and its depth with +inf, on every
    /// worker (bands of 16k pixels claimed from a counter): a frame's clear is parallel too.
    public func clear(_ target: Framebuffer, color: UInt32) {
        run(.clear(ClearWork(color: target.color, depth: target.depth, pixels: target.pixelCount, value: color)))
    }

    /// Runs one stage on every worker and waits.
    private func run(_ work: RasterStage) {
        stage = work
        nextItem.store(0, ordering: .relaxed)
        pool.run(self, runRasterStage)
        stage = .idle
    }

    private func transformVertices(_ mesh: TriangleMesh, model: Matrix4, camera: Camera, builder: TriangleSetupBuilder) {
        let n = mesh.vertexCount
        vertices.reserve(n)
        screenVertices.reserve(n)
        let mvp = camera.viewProjection * model
        // Normals transform by the inverse transpose of the model matrix's linear part.
        let nm = (model.inverse ?? .identity).transposed
        mesh.positions.withUnsafeBufferPointer { pos in
            mesh.normals.withUnsafeBufferPointer { nrm in
                mesh.uvs.withUnsafeBufferPointer { uv in
                    mesh.colors.withUnsafeBufferPointer { col in
                        run(.vertices(VertexWork(
                            positions: pos.baseAddress!, normals: nrm.count == n ? nrm.baseAddress : nil,
                            uvs: uv.count == n ? uv.baseAddress : nil, colors: col.count == n ? col.baseAddress : nil,
                            count: n, mvp: mvp, normalMatrix: nm, out: vertices.base, screen: screenVertices.base,
                            width: Float(builder.width), height: Float(builder.height),
                            guardX: builder.guardX, guardY: builder.guardY)))
                    }
                }
            }
        }
    }

    private func ensureChunks(_ n: Int) {
        guard n > chunkCount else { return }
        let p = chunkBuffer.reserve(n, preserving: chunkCount)
        for i in chunkCount..<n { (p + i).initialize(to: SetupChunk()) }
        chunkCount = n
    }

    /// Flattens the mesh's materials (at least one) and returns their count.
    private func ensureMaterials(_ mesh: TriangleMesh) -> Int {
        let count = max(1, mesh.materials.count)
        materialStates.reserve(count)
        let hasColors = mesh.colors.count == mesh.vertexCount
        if mesh.materials.isEmpty {
            materialStates[0] = MaterialState(TriangleMesh.Material(), hasVertexColors: hasColors)
        } else {
            for i in 0..<count { materialStates[i] = MaterialState(mesh.materials[i], hasVertexColors: hasColors) }
        }
        return count
    }
}

/// A run of triangles of one material group, set up by one worker into one `SetupChunk`.
struct WorkItem {
    var first: Int
    var count: Int
    var material: Int32
    /// Set by the culling pass: how many of the run's triangles survive, and the most setups
    /// they can make (clipping can split one into several).
    var survivorCount = 0
    var setupBound = 0
    /// Where the run's setups start in the rasterizer's setup buffer.
    var setupOffset = 0

    init(first: Int, count: Int, material: Int32) {
        self.first = first; self.count = count; self.material = material
    }
}

/// The stage the workers are running, with its inputs (raw pointers valid during the stage).
enum RasterStage {
    case idle
    case vertices(VertexWork)
    case cull(CullWork)
    case setup(SetupWork)
    case tiles(TileWork)
    case clear(ClearWork)
}

/// A framebuffer clear, in bands.
struct ClearWork {
    static let band = 1 << 14
    let color: UnsafeMutablePointer<UInt32>
    let depth: UnsafeMutablePointer<Float>
    let pixels: Int
    let value: UInt32
    var itemCount: Int { (pixels + Self.band - 1) / Self.band }

    func run(item i: Int) {
        let start = i * Self.band, n = min(Self.band, pixels - start)
        (color + start).update(repeating: value, count: n)
        (depth + start).update(repeating: .infinity, count: n)
    }
}

struct VertexWork {
    let positions: UnsafePointer<Vec3>
    let normals: UnsafePointer<Vec3>?
    let uvs: UnsafePointer<Vec2>?
    let colors: UnsafePointer<Vec4>?
    let count: Int
    let mvp: Matrix4
    let normalMatrix: Matrix4
    let out: UnsafeMutablePointer<ClipVertex>
    let screen: UnsafeMutablePointer<ScreenVertex>
    let width, height, guardX, guardY: Float

    func run(item c: Int) {
        let chunk = RasterSettings.vertexChunk
        for i in (c * chunk)..<min(count, (c + 1) * chunk) {
            let clip = mvp.transform(point: positions[i])
            screen[i] = ScreenVertex(clip, width: width, height: height, guardX: guardX, guardY: guardY)
            out[i] = ClipVertex(clip: clip,
                                normal: normals.map { normalMatrix.transform(direction: $0[i]) } ?? Vec3(0, 0, 1),
                                uv: uvs?[i] ?? .zero, color: colors?[i] ?? Vec4(1, 1, 1, 1))
        }
    }

    var itemCount: Int { (count + RasterSettings.vertexChunk - 1) / RasterSettings.vertexChunk }
}

/// The culling pass: lists each run's surviving triangles (see `TriangleSetupBuilder.survives`)
/// and bounds the setups they make, reading only the `ScreenVertex`es.
struct CullWork {
    let indices: UnsafePointer<UInt32>
    let vertexCount: Int
    let screen: UnsafeMutablePointer<ScreenVertex>
    let items: UnsafeMutablePointer<WorkItem>
    let itemCount: Int
    let builder: TriangleSetupBuilder
    /// `RasterSettings.setupChunk` entries per item.
    let survivors: UnsafeMutablePointer<Int32>

    func run(item i: Int) {
        let item = items[i]
        let list = survivors + i * RasterSettings.setupChunk
        var n = 0, bound = 0
        for t in item.first..<(item.first + item.count) {
            let a = Int(indices[3 * t]), b = Int(indices[3 * t + 1]), c = Int(indices[3 * t + 2])
            guard a < vertexCount, b < vertexCount, c < vertexCount else { continue }
            let sa = screen[a], sb = screen[b], sc = screen[c]
            if builder.survives(sa, sb, sc) {
                list[n] = Int32(truncatingIfNeeded: t); n += 1
                bound += (sa.code | sb.code | sc.code) == 0 ? 1 : TriangleSetupBuilder.maxClippedTriangles
            }
        }
        items[i].survivorCount = n
        items[i].setupBound = bound
    }
}

/// Sets up each run's survivors into its place in `setups`, then bins them into tiles.
struct SetupWork {
    let indices: UnsafePointer<UInt32>
    let vertices: UnsafeMutablePointer<ClipVertex>
    let screen: UnsafeMutablePointer<ScreenVertex>
    let setups: UnsafeMutablePointer<TriangleSetup>
    let entryArena: DrawArena<Int32>
    let items: UnsafeMutablePointer<WorkItem>
    let itemCount: Int
    let chunks: UnsafeMutablePointer<SetupChunk>
    let builder: TriangleSetupBuilder
    let survivors: UnsafeMutablePointer<Int32>
    let tilesX: Int
    let tilesY: Int
    let materialCount: Int32

    func run(item i: Int, clip: UnsafeMutablePointer<ClipVertex>) {
        let item = items[i]
        let chunk = chunks + i
        let material = min(max(item.material, 0), materialCount - 1)
        chunk.pointee.begin(storage: setups + item.setupOffset, capacity: item.setupBound)
        let list = survivors + i * RasterSettings.setupChunk
        let ahead = RasterSettings.setupPrefetchDistance
        for k in 0..<item.survivorCount {
            // A dense mesh's vertices lie far apart in memory: ask for a later survivor's.
            if k &+ ahead < item.survivorCount {
                let u = 3 &* Int(list[k &+ ahead])
                csimd_prefetch(vertices + Int(indices[u])); csimd_prefetch(vertices + Int(indices[u &+ 1]))
                csimd_prefetch(vertices + Int(indices[u &+ 2]))
            }
            let t = Int(list[k])
            let a = Int(indices[3 * t]), b = Int(indices[3 * t + 1]), c = Int(indices[3 * t + 2])
            builder.build(a, b, c, vertices: vertices, screen: screen, material: material, into: &chunk.pointee,
                          poly: clip, scratch: clip + 16)
        }
        chunk.pointee.bin(tilesX: tilesX, tilesY: tilesY, arena: entryArena)
    }
}

struct TileWork {
    let chunks: UnsafeMutablePointer<SetupChunk>
    let chunkCount: Int
    let tilesX: Int
    let tilesY: Int
    let width: Int
    let height: Int
    let target: RasterTarget
    let materials: UnsafeMutablePointer<MaterialState>
    let light: LightState

    func run(tile t: Int) {
        let tx = t % tilesX, ty = t / tilesX
        let x0 = tx << RasterSettings.tileShift, y0 = ty << RasterSettings.tileShift
        let x1 = min(x0 + RasterSettings.tileSize, width) - 1, y1 = min(y0 + RasterSettings.tileSize, height) - 1
        let mats = UnsafePointer(materials)
        for c in 0..<chunkCount {
            let chunk = chunks + c
            let start = Int(chunk.pointee.tileStart[t]), end = Int(chunk.pointee.tileStart[t + 1])
            if start == end { continue }
            let setups = chunk.pointee.setups, entries = chunk.pointee.entries
            for e in start..<end {
                TileRasterizer.draw(setups + Int(entries[e]), tileX0: x0, tileY0: y0, tileX1: x1, tileY1: y1,
                                    target: target, materials: mats, light: light)
            }
        }
    }
}

/// The workers' entry point: a plain function, so handing it to the pool captures nothing.
/// Each worker claims items (vertex runs, triangle runs, tiles) from the shared counter.
func runRasterStage(_ r: TriangleRasterizer, _ worker: Int) {
    @inline(__always) func claim() -> Int { r.nextItem.wrappingAdd(1, ordering: .relaxed).oldValue }
    switch r.stage {
    case .idle:
        break
    case let .vertices(w):
        while case let i = claim(), i < w.itemCount { w.run(item: i) }
    case let .setup(w):
        let clip = r.clipBuffers + 32 * worker
        while case let i = claim(), i < w.itemCount { w.run(item: i, clip: clip) }
    case let .cull(w):
        while case let i = claim(), i < w.itemCount { w.run(item: i) }
    case let .tiles(w):
        let n = w.tilesX * w.tilesY
        while case let i = claim(), i < n { w.run(tile: i) }
    case let .clear(w):
        while case let i = claim(), i < w.itemCount { w.run(item: i) }
    }
}
