// SplatLOD — RegionWriter: the out-of-core build's regions, one after another in tree order —
// each built in memory by `LODBuilder` (or, when an earlier run finished it, read back), its
// levels kept on disk, its leaves added to the whole tree's — and the chunk files they complete,
// read back from the regions' levels and encoded on several threads.
import Foundation
import RenderCore
import SceneIO
import Workers

/// The regions built so far and the chunks written from them.
struct RegionWriter {
    let work: OutOfCoreWork
    let records: SplatRecords
    let builder: LODBuilder.Options
    /// How each chunk is encoded (the cache's: SH rows).
    let chunkOptions: SOGWriter.Options
    let chunkSplats: Int
    /// Every `fitStep`-th splat of the whole level 0 goes into the fit sample.
    let fitStep: Int
    /// Where the regions' levels are, the whole tree's leaves so far (ranges in the whole levels),
    /// each region's first leaf and tree, and the fit sample.
    private(set) var levels: RegionLevels
    private(set) var leaves: [LODPyramid.Leaf] = []
    private var regionTrees: [String: LODPyramid.Node] = [:]
    private(set) var fitSample: [Vec3] = []
    private(set) var regionsBuilt = 0
    /// Most splats of a region built in memory by this writer.
    private(set) var mostSplatsBuilt = 0

    init(work: OutOfCoreWork, records: SplatRecords, builder: LODBuilder.Options, chunkSplats: Int, captureSplats: Int,
         chunkOptions: SOGWriter.Options = SOGWriter.Options()) {
        self.work = work; self.records = records; self.builder = builder; self.chunkSplats = chunkSplats
        self.chunkOptions = chunkOptions
        fitStep = RobustBounds.sampleStep(count: captureSplats)
        levels = RegionLevels(levels: builder.levels, records: records)
    }

    /// Adds region `name`: built now unless marked built; returns whether it was built now.
    /// `progress` gets the region's (leaves done, leaves).
    mutating func add(region name: String, cancelled: (@Sendable () -> Bool)?,
                      progress: @escaping @Sendable (Int, Int) -> Void) throws -> Bool {
        var built = false
        if !FileManager.default.fileExists(atPath: work.path(name, "built")) {
            mostSplatsBuilt = max(mostSplatsBuilt, try build(name, cancelled: cancelled, progress: progress))
            built = true
            regionsBuilt += 1
        }
        guard let result = RegionResult.read(work.path(name, "result")) else {
            throw LODBuildError.workFile(path: work.path(name, "result"), reason: "missing or damaged")
        }
        let starts = levels.append(levelsFile: work.path(name, "levels"), counts: result.counts)
        regionTrees[name] = result.node(firstLeaf: leaves.count)
        leaves += result.leaves(offsets: starts)
        fitSample += result.fitPositions
        return built
    }

    /// Builds region `name` from its records and leaves its levels and result on disk, marked;
    /// returns the region's splats.
    private func build(_ name: String, cancelled: (@Sendable () -> Bool)?, progress: @escaping @Sendable (Int, Int) -> Void) throws -> Int {
        let (cloud, _) = try records.read(work.path(name, "rec"))
        let pyramid = try LODBuilder.build(cloud, options: builder, cancelled: cancelled, progress: progress)
        let start = levels.totals[0]
        var sample: [Vec3] = []
        var j = (fitStep - start % fitStep) % fitStep
        while j < pyramid.levels[0].count { sample.append(pyramid.levels[0].positions[j]); j += fitStep }
        let writer = try RecordFileWriter(work.path(name, "levels"))
        for level in pyramid.levels { try writer.append(level, records: records) { _ in 0 } }
        try writer.finish()
        try RegionResult(pyramid, fitSample: sample).write(work.path(name, "result"))
        guard FileManager.default.createFile(atPath: work.path(name, "built"), contents: Data()) else {
            throw LODBuildError.workFile(path: work.path(name, "built"), reason: "cannot be created")
        }
        try? FileManager.default.removeItem(atPath: work.path(name, "rec"))
        return cloud.count
    }

    /// Writes every chunk the leaves so far complete (all of them when `complete`) that is not
    /// written yet, on `threads` threads; returns the most splats a chunk written held (0: none).
    @discardableResult
    func writeFinishedChunks(complete: Bool, threads: Int, cancelled: (@Sendable () -> Bool)?) throws -> Int {
        let plan = StreamedSOGWriter.chunkPlan(levelCount: builder.levels, leaves: leaves, chunkSplats: chunkSplats, complete: complete)
        let levels = self.levels, work = self.work, options = chunkOptions
        let pending = plan.filter { $0.isFinal && !work.chunkWritten($0.name) }
        try ParallelLoop.run(count: pending.count, threads: threads, cancelled: cancelled) { k in
            let c = pending[k]
            try StreamedSOGWriter.writeChunk(try levels.read(level: c.level, span: c.splats), name: c.name, into: work.out, options: options)
            try work.markChunk(c.name)
        }
        if cancelled?() == true { throw LODBuildError.cancelled }
        return pending.map(\.splats.count).max() ?? 0
    }

    /// The whole tree: the partition's splits with each region's own tree in its place.
    func tree(_ node: RegionNode) -> LODPyramid.Node {
        switch node {
        case .region(let name): return regionTrees[name]!
        case .split(let a, let b): return .split(tree(a), tree(b))
        }
    }
}
