// SceneIO — StreamedSOGWriter: an `LODPyramid` → a PlayCanvas streamed SOG (`lod-meta.json` and
// one unbundled SOG v2 folder per chunk), in the layout splat-transform's write-lod.ts writes:
// chunk folders `L_I/meta.json` (level L, I-th file of that level), each holding whole leaf ranges
// one after another; `lod-meta.json` = {version 1, asset, count, counts, fitBounds, lodLevels,
// filenames, tree} (fitBounds, ours: the finest level's `RobustBounds`, so a viewer fits the tree as
// it fits the whole capture), inner nodes {bound, children}, leaves {bound, lods: {"L": {file, offset, count}},
// levelErrors (ours, when measured: `LevelErrorTable`, 4 significant digits)}.
//
// Chunking: a level's leaves go into its current file in tree order until the next range would
// take it over `chunkSplats`; one leaf range is never split. The default (65,536) keeps every
// chunk within one SH palette (no k-means: each chunk's palette is its rows), small enough to
// stream one at a time and large enough that a leaf's level fits whole; splat-transform's reader
// takes any chunk size (it reads each file's own `count`).
// Contract: the whole folder is written under a temporary name beside it and renamed into place;
// an existing folder is replaced only when it is empty or a streamed SOG (holds `lod-meta.json`).
import Foundation
import RenderCore
import Workers

/// Writes streamed SOG.
public enum StreamedSOGWriter {
    /// Chunk files hold at most this many splats by default.
    public static let defaultChunkSplats = 65_536

    /// Writes `pyramid` to `path` (…/lod-meta.json, or the folder to hold it), encoding chunks on
    /// `threads` threads. Each chunk's SH palette holds its rows (unless `options` names a size):
    /// no k-means, so a chunk encodes in well under a second. `progress` gets (chunks written,
    /// chunks), from whichever thread finished one. `cancelled` is asked before each chunk: when
    /// it says yes the write stops, the temporary folder goes, and `SceneIOError.cancelled` is thrown.
    public static func write(_ pyramid: LODPyramid, to path: String, chunkSplats: Int = defaultChunkSplats,
                             options: SOGWriter.Options = SOGWriter.Options(), threads: Int = CoreCount.available,
                             cancelled: (@Sendable () -> Bool)? = nil, progress: ((Int, Int) -> Void)? = nil) throws {
        let metaPath = path.hasSuffix(".json") ? path : (path as NSString).appendingPathComponent("lod-meta.json")
        let folder = (metaPath as NSString).deletingLastPathComponent.isEmpty ? "." : (metaPath as NSString).deletingLastPathComponent
        guard chunkSplats > 0 else { throw SceneIOError.unsupported(file: metaPath, reason: "chunks of \(chunkSplats) splats") }
        guard !pyramid.levels.isEmpty, pyramid.levels[0].count > 0 else {
            throw SceneIOError.unsupported(file: metaPath, reason: "a streamed SOG of 0 splats")
        }
        let layout = StreamedSOGLayout(levelCount: pyramid.levels.count, leaves: pyramid.leaves, chunkSplats: chunkSplats)
        let files = layout.files, names = layout.names
        let fit = RobustBounds.of(pyramid.levels[0].positions)

        let fm = FileManager.default
        let parent = (folder as NSString).deletingLastPathComponent.isEmpty ? "." : (folder as NSString).deletingLastPathComponent
        let temp = (parent as NSString).appendingPathComponent(".\((folder as NSString).lastPathComponent).partial-\(getpid())")
        do {
            try checkReplaceable(folder, metaPath: metaPath)
            try? fm.removeItem(atPath: temp)
            try fm.createDirectory(atPath: temp, withIntermediateDirectories: true)
            // Chunks are independent: every worker encodes the next unclaimed one.
            try ParallelLoop.run(count: files.count, threads: threads, cancelled: cancelled, progress: progress) { k in
                let f = files[k]
                try writeChunk(pyramid.levels[f.level].subset(ranges: f.ranges), name: names[k], into: temp, options: options,
                               file: (folder as NSString).appendingPathComponent(names[k]))
            }
            if cancelled?() == true { throw SceneIOError.cancelled(file: metaPath) }
            let meta = metaJSON(counts: pyramid.counts, leaves: pyramid.leaves, tree: pyramid.tree, names: names, place: layout.place, fit: fit)
            try Data(meta.utf8).write(to: URL(fileURLWithPath: (temp as NSString).appendingPathComponent((metaPath as NSString).lastPathComponent)))
            if fm.fileExists(atPath: folder) { try fm.removeItem(atPath: folder) }
            try fm.moveItem(atPath: temp, toPath: folder)
        } catch let e as SceneIOError {
            try? fm.removeItem(atPath: temp)
            throw e
        } catch {
            try? fm.removeItem(atPath: temp)
            throw SceneIOError.unwritable(file: metaPath, reason: (error as NSError).localizedDescription)
        }
    }

    /// Encodes `cloud` as the chunk `name` (`L_I/meta.json`) under `folder`, its SH palette holding
    /// its rows unless `options` names a size; `file` names it in errors.
    public static func writeChunk(_ cloud: SplatCloud, name: String, into folder: String,
                                  options: SOGWriter.Options = SOGWriter.Options(), file: String? = nil) throws {
        var chunkOptions = options
        if chunkOptions.shPaletteSize == nil { chunkOptions.shPaletteSize = min(1 << 16, cloud.count) }
        let encoded = try SOGWriter.encode(cloud, options: chunkOptions, order: Array(0..<cloud.count),
                                           file: file ?? (folder as NSString).appendingPathComponent(name))
        let chunkFolder = (folder as NSString).appendingPathComponent((name as NSString).deletingLastPathComponent)
        try FileManager.default.createDirectory(atPath: chunkFolder, withIntermediateDirectories: true)
        try SOGWriter.writeFiles(encoded, into: chunkFolder)
    }

    /// lod-meta.json's text for a tree whose levels hold `counts` splats.
    static func metaJSON(counts: [Int], leaves: [LODPyramid.Leaf], tree: LODPyramid.Node, names: [String],
                         place: [[(file: Int, offset: Int)]], fit: Bounds) -> String {
        func num(_ v: Float) -> String { v.isFinite ? "\(v)" : "0" }
        func bound(_ b: Bounds) -> String {
            "{\"min\":[\(num(b.min.x)),\(num(b.min.y)),\(num(b.min.z))],\"max\":[\(num(b.max.x)),\(num(b.max.y)),\(num(b.max.z))]}"
        }
        func node(_ n: LODPyramid.Node) -> (String, Bounds) {
            switch n {
            case .leaf(let i):
                let leaf = leaves[i]
                var lods: [String] = []
                for (l, r) in leaf.ranges.enumerated() where !r.isEmpty && place[i][l].file >= 0 {
                    lods.append("\"\(l)\":{\"file\":\(place[i][l].file),\"offset\":\(place[i][l].offset),\"count\":\(r.count)}")
                }
                var errors = ""
                if let t = leaf.levelErrors, t.levels == counts.count {
                    errors = ",\"levelErrors\":[" + t.values.map { String(format: "%.4g", Double($0)) }.joined(separator: ",") + "]"
                }
                return ("{\"bound\":\(bound(leaf.bounds)),\"lods\":{\(lods.joined(separator: ","))}\(errors)}", leaf.bounds)
            case .split(let a, let b):
                let (ta, ba) = node(a), (tb, bb) = node(b)
                let u = ba.including(bb.min).including(bb.max)
                return ("{\"bound\":\(bound(u)),\"children\":[\(ta),\(tb)]}", u)
            }
        }
        return "{\"version\":1,\"asset\":{\"generator\":\"splatframe\"},\"count\":\(counts.reduce(0, +)),\"counts\":\(counts)"
            + ",\"fitBounds\":\(bound(fit)),\"lodLevels\":\(counts.count),\"filenames\":[\(names.map { "\"\($0)\"" }.joined(separator: ","))],\"tree\":\(node(tree).0)}"
    }
}

extension SplatCloud {
    /// The splats in `ranges`, in that order.
    func subset(ranges: [Range<Int>]) -> SplatCloud {
        var c = SplatCloud(shDegree: shDegree)
        let total = ranges.reduce(0) { $0 + $1.count }
        c.reserveCapacity(total)
        let r = shRestCount * 3
        for range in ranges {
            c.positions += positions[range]; c.scales += scales[range]; c.rotations += rotations[range]
            c.opacities += opacities[range]; c.dc += dc[range]
            if r > 0 { c.shRest += shRest[(range.lowerBound * r)..<(range.upperBound * r)] }
        }
        return c
    }
}

/// How a pyramid is cut into chunk files: per level, its leaves' ranges packed in leaf order into
/// files of at most `chunkSplats` (a range is never split), named `L_I/meta.json`.
struct StreamedSOGLayout {
    struct File { var level: Int; var ranges: [Range<Int>] = []; var count = 0 }
    var files: [File] = []
    /// Per leaf, per level: its file (−1 when the range is empty) and its offset there.
    var place: [[(file: Int, offset: Int)]]
    var names: [String] = []

    /// The layout of `leaves` (their ranges index levels 0..<levelCount) in tree order.
    init(levelCount: Int, leaves: [LODPyramid.Leaf], chunkSplats: Int) {
        place = [[(file: Int, offset: Int)]](repeating: [], count: leaves.count)
        for l in 0..<levelCount {
            var current = -1
            for (i, leaf) in leaves.enumerated() {
                let r = l < leaf.ranges.count ? leaf.ranges[l] : 0..<0
                guard !r.isEmpty else { place[i].append((-1, 0)); continue }
                if current < 0 || files[current].count + r.count > chunkSplats && files[current].count > 0 {
                    files.append(File(level: l)); current = files.count - 1
                }
                place[i].append((current, files[current].count))
                files[current].ranges.append(r); files[current].count += r.count
            }
        }
        var perLevel = [Int](repeating: 0, count: levelCount)
        for f in files { names.append("\(f.level)_\(perLevel[f.level])/meta.json"); perLevel[f.level] += 1 }
    }
}
