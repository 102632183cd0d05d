import RenderCore

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
/// `draw` runs three parallel stages on a fixed `WorkerPool`: vertex transform, setup and
/// binning (per run of 2048 triangles: homogeneous clipping, culling, fixed-point edge
/// functions, attribute planes, counting-sort into 64×64 tiles), and per-tile rasterization
/// (triangles in submission order, so output does not depend on the thread count). Buffers
/// grow to the largest draw seen and are then reused: no allocation per frame in steady state.
public final class TriangleRasterizer: @unchecked Sendable {
    /// The threads the stages run on.
    public let pool: WorkerPool
    /// Culling and lighting options.
    public var settings: RasterSettings

    private var vertices: UnsafeMutablePointer<ClipVertex>
    private var vertexCapacity = 0
    private var chunks: UnsafeMutablePointer<SetupChunk>
    private var chunkCount = 0
    private var scratch: [([ClipVertex], [ClipVertex])] = []
    private var workItems: [(first: Int, count: Int, material: Int32)] = []
    private var materialStates: UnsafeMutablePointer<MaterialState>
    private var materialCapacity = 0

    /// Creates a rasterizer on its own pool of `threads` threads.
    public convenience init(threads: Int = WorkerPool.coreCount, settings: RasterSettings = RasterSettings()) {
        self.init(pool: WorkerPool(threads: threads), settings: settings)
    }

    /// Creates a rasterizer sharing an existing pool.
    public init(pool: WorkerPool, settings: RasterSettings = RasterSettings()) {
        self.pool = pool; self.settings = settings
        vertices = .allocate(capacity: 1)
        chunks = .allocate(capacity: 1)
        materialStates = .allocate(capacity: 1)
    }

    deinit {
        vertices.deallocate()
        for i in 0..<chunkCount { chunks[i].free() }
        chunks.deallocate()
        materialStates.deallocate()
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
        transformVertices(mesh, model: model, camera: camera)
        let t1 = MonotonicClock.now()

        // Work items: runs of triangles within a material group.
        workItems.removeAll(keepingCapacity: true)
        for g in mesh.effectiveGroups {
            let first = max(0, g.firstTriangle), end = min(mesh.triangleCount, g.firstTriangle + g.triangleCount)
            var s = first
            while s < end {
                let n = min(RasterSettings.setupChunk, end - s)
                workItems.append((s, n, Int32(g.material)))
                s += n
            }
        }
        ensureChunks(workItems.count)
        let materials = mesh.materials.isEmpty ? [TriangleMesh.Material()] : mesh.materials
        ensureMaterials(materials, hasVertexColors: mesh.colors.count == mesh.vertexCount)

        let width = target.width, height = target.height
        let tilesX = (width + RasterSettings.tileSize - 1) >> RasterSettings.tileShift
        let tilesY = (height + RasterSettings.tileSize - 1) >> RasterSettings.tileShift
        let builder = TriangleSetupBuilder(width: width, height: height, settings: settings)
        let vertexCount = mesh.vertexCount
        let verts = vertices, chunks = self.chunks
        let materialCount = Int32(materials.count)
        mesh.indices.withUnsafeBufferPointer { idx in
            workItems.withUnsafeBufferPointer { items in
                scratch.withUnsafeMutableBufferPointer { scratch in
                    pool.run(count: items.count) { i in
                        let item = items[i]
                        let chunk = chunks + i
                        chunk.pointee.count = 0
                        let material = min(max(item.material, 0), materialCount - 1)
                        // Per-thread clip buffers: indexed by work item modulo the pool's scratch count is
                        // not thread-safe, so each work item owns one slot.
                        for t in item.first..<(item.first + item.count) {
                            let a = Int(idx[3 * t]), b = Int(idx[3 * t + 1]), c = Int(idx[3 * t + 2])
                            guard a < vertexCount, b < vertexCount, c < vertexCount else { continue }
                            builder.build(verts[a], verts[b], verts[c], material: material, into: &chunk.pointee,
                                          poly: &scratch[i].0, scratch: &scratch[i].1)
                        }
                        chunk.pointee.bin(tilesX: tilesX, tilesY: tilesY)
                    }
                }
            }
        }
        let t2 = MonotonicClock.now()

        let rt = RasterTarget(color: target.color, depth: target.depth, width: width)
        let l = settings.lighting
        let light = LightState(direction: l.direction, ambient: l.ambient, diffuse: l.diffuse)
        let nChunks = workItems.count
        let mats = UnsafePointer(materialStates)
        pool.run(count: tilesX * tilesY) { t in
            let tx = t % tilesX, ty = t / tilesX
            let x0 = tx << RasterSettings.tileShift, y0 = ty << RasterSettings.tileShift
            let x1 = min(x0 + RasterSettings.tileSize, width) - 1, y1 = min(y0 + RasterSettings.tileSize, height) - 1
            for c in 0..<nChunks {
                let chunk = chunks + c
                let start = Int(chunk.pointee.tileStart[t]), end = Int(chunk.pointee.tileStart[t + 1])
                if start == end { continue }
                let setups = chunk.pointee.setups, entries = chunk.pointee.entries
                for e in start..<end {
                    TileRasterizer.draw(setups + Int(entries[e]), tileX0: x0, tileY0: y0, tileX1: x1, tileY1: y1,
                                        target: rt, materials: mats, light: light)
                }
            }
        }
        let t3 = MonotonicClock.now()
        for c in 0..<nChunks { stats.trianglesSetUp += chunks[c].count }
        stats.vertexMs = (t1 - t0) * 1000
        stats.setupMs = (t2 - t1) * 1000
        stats.rasterMs = (t3 - t2) * 1000
        withExtendedLifetime(mesh) {}
        return stats
    }

    private func transformVertices(_ mesh: TriangleMesh, model: Matrix4, camera: Camera) {
        let n = mesh.vertexCount
        if vertexCapacity < n {
            vertices.deallocate()
            vertexCapacity = max(n, vertexCapacity * 2)
            vertices = .allocate(capacity: vertexCapacity)
        }
        let mvp = camera.viewProjection * model
        // Normals transform by the inverse transpose of the model matrix's linear part.
        let nm = (model.inverse ?? .identity).transposed
        let verts = vertices
        mesh.positions.withUnsafeBufferPointer { pos in
            mesh.normals.withUnsafeBufferPointer { nrm in
                mesh.uvs.withUnsafeBufferPointer { uv in
                    mesh.colors.withUnsafeBufferPointer { col in
                        let hasN = nrm.count == n, hasUV = uv.count == n, hasC = col.count == n
                        let chunk = RasterSettings.vertexChunk
                        pool.run(count: (n + chunk - 1) / chunk) { c in
                            for i in (c * chunk)..<min(n, (c + 1) * chunk) {
                                let p = pos[i]
                                verts[i] = ClipVertex(
                                    clip: mvp.transform(point: p),
                                    normal: hasN ? nm.transform(direction: nrm[i]) : Vec3(0, 0, 1),
                                    uv: hasUV ? uv[i] : .zero,
                                    color: hasC ? col[i] : Vec4(1, 1, 1, 1))
                            }
                        }
                    }
                }
            }
        }
    }

    private func ensureChunks(_ n: Int) {
        if n > chunkCount {
            let p = UnsafeMutablePointer<SetupChunk>.allocate(capacity: n)
            p.moveInitialize(from: chunks, count: chunkCount)
            for i in chunkCount..<n { (p + i).initialize(to: SetupChunk()) }
            chunks.deallocate()
            chunks = p
            chunkCount = n
        }
        while scratch.count < n {
            var a: [ClipVertex] = [], b: [ClipVertex] = []
            a.reserveCapacity(16); b.reserveCapacity(16)
            scratch.append((a, b))
        }
    }

    private func ensureMaterials(_ materials: [TriangleMesh.Material], hasVertexColors: Bool) {
        if materialCapacity < materials.count {
            materialStates.deallocate()
            materialCapacity = materials.count
            materialStates = .allocate(capacity: materialCapacity)
        }
        for (i, m) in materials.enumerated() { materialStates[i] = MaterialState(m, hasVertexColors: hasVertexColors) }
    }
}
