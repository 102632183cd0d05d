// SplatLOD — OutOfCoreBuilder: a capture's level-of-detail tree built and written as a streamed
// SOG in bounded memory, whatever the capture's size (`convert BIG.ply DIR/lod-meta.json`).
//
//   1. Read: the capture is read in blocks (`SplatStreams`: a binary 3DGS PLY, an .spz or a SOG
//      in bounded memory; other formats are read whole, then released) into records on disk
//      (`SplatRecords`).
//   2. Partition: the records are split on disk exactly as `LODBuilder` splits them in memory
//      (`DiskPartition`) until a part — a region — fits the memory bound's share.
//   3. Regions, in tree order: each is read into memory and built by `LODBuilder` (it yields the
//      leaves the whole build would: leaves never cross a split), its levels kept on disk
//      (`RegionResult`), and every chunk file the regions so far complete is written
//      (`StreamedSOGWriter.chunkPlan`). So the tree — its leaves, chunks and lod-meta.json — is
//      byte for byte the one the in-memory build writes.
//   4. lod-meta.json last; the folder is renamed into place only when whole.
// Resumable: everything lives in `.NAME.lod-build` beside the output folder, each step marked
// finished by a file; a build run again on the same input with the same options skips finished
// splits, regions and chunks. The folder goes once the tree is in place.
// Memory: one region's build (`LODBuilder.estimatedPeakBytes` of its splats, kept within
// `maxMemoryBytes` less a reserve for chunk writing), a block of records, the leaves' metadata.
// Disk: about three times the capture as float32 records at the peak (records, regions' levels).
import Foundation
import RenderCore
import SceneIO
import Workers

/// Builds streamed SOGs out of core (see the file header).
public enum OutOfCoreBuilder {
    /// Choices of the build.
    public struct Options: Sendable {
        /// Levels in all (nil: `CaptureLOD.buildOptions` for the capture's count).
        public var levels: Int?
        /// Most splats per chunk file.
        public var chunkSplats = StreamedSOGWriter.defaultChunkSplats
        /// Threads for each region's leaves and for chunk encoding.
        public var threads = CoreCount.available
        /// Bytes the build may hold at its peak (default 2 GiB).
        public var maxMemoryBytes = OutOfCoreBuilder.defaultMaxMemory
        /// Most splats per region (nil: from `maxMemoryBytes`; tests name a small one).
        public var regionSplats: Int?
        /// Whether chunks keep their SH as splatframe's rows (`SOGWriter.Options.shRows`): the
        /// level-of-detail cache's choice; a streamed SOG written for others keeps palettes.
        public var shRows = false
        public init() {}
        /// How each chunk is encoded.
        var chunkOptions: SOGWriter.Options { var o = SOGWriter.Options(); o.shRows = shRows; return o }
    }

    /// The default memory bound: 2 GiB.
    public static let defaultMaxMemory = 2 << 30
    /// Bytes kept aside from a region's share: chunk encoding, blocks, the leaves' metadata.
    static let reserveBytes = 256 << 20

    /// Where a build is.
    public struct Progress: Sendable {
        public enum Phase: String, Sendable { case reading, partitioning, building }
        public var phase: Phase
        /// Regions built (or found built) and regions in all (0 until partitioned).
        public var regionsDone: Int, regions: Int
        /// Fraction of the whole build done, 0…1.
        public var fraction: Double
        /// Seconds the build still needs, estimated from the regions built in this run; nil
        /// before there is anything to go by.
        public var secondsLeft: Double?
    }

    /// What a build did.
    public struct Result: Sendable {
        /// Splats per level and leaves of the tree written.
        public let counts: [Int], leaves: Int
        /// Regions in all, built by this run and found built by an earlier one.
        public let regions: Int, regionsBuilt: Int, regionsReused: Int
        /// Whether the input was read in bounded memory (false: read whole, then released).
        public let streamedInput: Bool
        /// Lines the reader had to say about the input.
        public let warnings: [String]
        /// Most splats this run held decoded at once: a block read, a region built, a chunk
        /// written (not counting a capture read whole when `streamedInput` is false).
        public let mostSplatsHeld: Int
    }

    /// Most splats a region may hold under `maxMemory` bytes with `shDegree` SH bands: what
    /// `LODBuilder.estimatedPeakBytes` says fits after `reserveBytes`, at least 4 leaves.
    public static func regionSplats(maxMemory: Int, shDegree: Int, leafSplats: Int = CaptureLOD.leafSplats) -> Int {
        let fixed = LODBuilder.estimatedPeakBytes(splats: 0, shDegree: shDegree)
        let perSplat = LODBuilder.estimatedPeakBytes(splats: 1 << 20, shDegree: shDegree) - fixed
        let share = Double(maxMemory - fixed - reserveBytes) / Double(perSplat) * Double(1 << 20)
        return max(4 * leafSplats + 1, Int(max(0, share)))
    }

    /// Whether the in-memory build of `splats` splats fits `maxMemory` bytes
    /// (`LODBuilder.estimatedPeakBytes`): `convert` builds out of core when it does not.
    public static func inMemoryFits(splats: Int, shDegree: Int, maxMemory: Int) -> Bool {
        LODBuilder.estimatedPeakBytes(splats: splats, shDegree: shDegree) <= maxMemory
    }

    /// Builds `input`'s tree and writes it to `output` (…/lod-meta.json or its folder), resuming
    /// an interrupted build of the same input and options. `cancelled` is asked between blocks,
    /// splits and leaves: when it says yes, the build stops with `LODBuildError.cancelled`,
    /// keeping what it finished for the next run.
    /// - Throws: `SceneIOError` (input, output folder), `LODBuildError` (stopped, working files).
    /// `stream`, when given, is `input` already opened (`SplatStreams.open`); it is read only if
    /// no earlier run finished reading.
    public static func build(input: String, output: String, options: Options = Options(), stream given: (any SplatStream)? = nil,
                             cancelled: (@Sendable () -> Bool)? = nil, progress: (@Sendable (Progress) -> Void)? = nil) throws -> Result {
        let metaPath = output.hasSuffix(".json") ? output : (output as NSString).appendingPathComponent("lod-meta.json")
        let folder = (metaPath as NSString).deletingLastPathComponent.isEmpty ? "." : (metaPath as NSString).deletingLastPathComponent
        try StreamedSOGWriter.checkReplaceable(folder, metaPath: metaPath)
        let work = OutOfCoreWork(folder: folder, key: try key(input, options))
        try work.prepare()

        // 1. Read, in blocks no larger than a region.
        var warnings: [String] = [], streamed = true, held = 0
        func regionSize(splats: Int, shDegree: Int, leafSplats: Int) -> Int {
            max(2 * leafSplats + 1, options.regionSplats
                ?? regionSplats(maxMemory: options.maxMemoryBytes, shDegree: shDegree, leafSplats: leafSplats))
        }
        if RecordFileInfo.read(work.path("r", "info")) == nil {
            let stream = try given ?? SplatStreams.open(input)
            warnings = stream.warnings; streamed = stream.isBounded
            let block = min(SplatRecords(shDegree: stream.shDegree).blockRecords,
                            regionSize(splats: stream.count, shDegree: stream.shDegree, leafSplats: CaptureLOD.leafSplats))
            held = min(block, stream.count)
            try work.ingest(stream, blockSplats: block, cancelled: cancelled) { done, total in
                progress?(Progress(phase: .reading, regionsDone: 0, regions: 0, fraction: 0.05 * Double(done) / Double(max(1, total))))
            }
        }
        guard let info = RecordFileInfo.read(work.path("r", "info")), info.count > 0 else {
            throw SceneIOError.unsupported(file: metaPath, reason: "a streamed SOG of 0 splats")
        }
        var lod = CaptureLOD.buildOptions(splats: info.count, chunkSplats: options.chunkSplats)
        if let levels = options.levels { lod.levels = max(1, min(16, levels)) }
        lod.threads = options.threads
        let records = SplatRecords(shDegree: info.shDegree)

        // 2. Partition.
        let regionSize = regionSize(splats: info.count, shDegree: info.shDegree, leafSplats: lod.leafSplats)
        let depth = max(1, Int(log2(Double(info.count) / Double(regionSize)).rounded(.up)))
        var passed = 0
        var partition = DiskPartition(folder: work.folder, records: records, regionSplats: regionSize, cancelled: cancelled)
        partition.progress = { n in
            passed += n
            progress?(Progress(phase: .partitioning, regionsDone: 0, regions: 0,
                               fraction: 0.05 + 0.05 * min(1, Double(passed) / Double(info.count * depth))))
        }
        let tree = try partition.partition()
        let names = tree.regions

        // 3. Regions, and the chunks they complete.
        var writer = RegionWriter(work: work, records: records, builder: lod, chunkSplats: options.chunkSplats, captureSplats: info.count,
                                  chunkOptions: options.chunkOptions)
        let regionSplatCounts = names.map { RecordFileInfo.read(work.path($0, "info"))?.count ?? 0 }
        let clock = RegionClock(started: MonotonicClock.now(), captureSplats: info.count, regions: names.count)
        var builtSplats = 0, doneSplats = 0
        for (k, name) in names.enumerated() {
            if cancelled?() == true { throw LODBuildError.cancelled }
            let (done, built, size) = (doneSplats, builtSplats, regionSplatCounts[k])
            progress?(clock.progress(k, done: done, built: built, current: 0))
            let wasBuilt = try writer.add(region: name, cancelled: cancelled) { leaves, total in
                progress?(clock.progress(k, done: done, built: built, current: Double(size) * Double(leaves) / Double(max(1, total))))
            }
            doneSplats += size
            if wasBuilt { builtSplats += size }
            held = max(held, try writer.writeFinishedChunks(complete: k == names.count - 1, threads: options.threads, cancelled: cancelled))
        }
        progress?(clock.progress(names.count, done: doneSplats, built: builtSplats, current: 0))

        // 4. lod-meta.json, and the folder into place.
        let whole = writer.tree(tree)
        let text = StreamedSOGWriter.metaText(counts: writer.levels.totals, leaves: writer.leaves, tree: whole,
                                              chunkSplats: options.chunkSplats, fit: RobustBounds.of(sample: writer.fitSample))
        try work.finish(meta: text, metaName: (metaPath as NSString).lastPathComponent, into: folder, metaPath: metaPath)
        return Result(counts: writer.levels.totals, leaves: writer.leaves.count, regions: names.count,
                      regionsBuilt: writer.regionsBuilt, regionsReused: names.count - writer.regionsBuilt,
                      streamedInput: streamed, warnings: warnings, mostSplatsHeld: max(held, writer.mostSplatsBuilt))
    }

    /// What a finished part of a build must agree with to be reused: the input (path, size,
    /// modification time) and the options that shape the tree.
    static func key(_ input: String, _ o: Options) throws -> String {
        let capture = try LODCache.key(for: input, recipe: CaptureLOD.recipe).text
        return "out-of-core 1|\(capture)|levels \(o.levels.map(String.init) ?? "auto")|chunk \(o.chunkSplats)"
            + "|memory \(o.maxMemoryBytes)|regions \(o.regionSplats.map(String.init) ?? "auto")" + (o.shRows ? "|sh rows" : "")
    }
}

/// The building phase's progress and time left: splats of regions built in this run per second.
struct RegionClock: Sendable {
    let started: Double
    let captureSplats: Int, regions: Int

    /// Progress with `k` regions finished (`done` splats, `built` of them in this run) and
    /// `current` splats of region `k` built.
    func progress(_ k: Int, done: Int, built: Int, current: Double) -> OutOfCoreBuilder.Progress {
        let fraction = (Double(done) + current) / Double(max(1, captureSplats))
        let thisRun = Double(built) + current, elapsed = MonotonicClock.now() - started
        let remaining = Double(captureSplats - done) - current
        let left = thisRun > 0 && elapsed > 1 ? max(0, remaining / (thisRun / elapsed)) : nil
        return .init(phase: .building, regionsDone: k, regions: regions, fraction: 0.1 + 0.9 * fraction, secondsLeft: left)
    }
}
