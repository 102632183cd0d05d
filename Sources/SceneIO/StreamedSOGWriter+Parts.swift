// SceneIO — StreamedSOGWriter+Parts: a streamed SOG written in parts, for a builder that never
// holds the whole pyramid (SplatLOD's out-of-core build): the chunk layout of the leaves known so
// far (a chunk is final once its level has a later one: leaves only ever arrive in tree order),
// each chunk encoded on its own (`writeChunk`), and lod-meta.json written last (`metaText`).
// The layout and the text are the ones `write` makes from a whole pyramid, so a tree written in
// parts is byte for byte the tree written whole.
import Foundation
import RenderCore

extension StreamedSOGWriter {
    /// One chunk file of a streamed SOG: the splats `splats` (indices into its level's splats, the
    /// leaves' ranges one after another) of level `level`, written as `name` (`L_I/meta.json`).
    public struct ChunkPlan: Sendable, Equatable {
        public let level: Int
        public let splats: Range<Int>
        public let name: String
        /// Whether leaves still to come can no longer join it (a later chunk of its level exists).
        public let isFinal: Bool
    }

    /// The chunk files of `leaves` (tree order; their ranges index levels 0..<levelCount), in
    /// file order. With `complete` false the last chunk of each level may still grow
    /// (`isFinal` false): more leaves are to come.
    public static func chunkPlan(levelCount: Int, leaves: [LODPyramid.Leaf], chunkSplats: Int, complete: Bool) -> [ChunkPlan] {
        let layout = StreamedSOGLayout(levelCount: levelCount, leaves: leaves, chunkSplats: chunkSplats)
        var lastOfLevel = [Int](repeating: -1, count: levelCount)
        for (k, f) in layout.files.enumerated() { lastOfLevel[f.level] = k }
        return layout.files.enumerated().map { k, f in
            let lower = f.ranges.first?.lowerBound ?? 0, upper = f.ranges.last?.upperBound ?? 0
            return ChunkPlan(level: f.level, splats: lower..<upper, name: layout.names[k], isFinal: complete || lastOfLevel[f.level] != k)
        }
    }

    /// lod-meta.json's text for the tree `tree` over `leaves` (tree order), whose levels hold
    /// `counts` splats, cut into chunks of at most `chunkSplats`; `fit` is the finest level's
    /// `RobustBounds` (`RobustBounds.of(sample:)` of every `sampleStep`-th splat of level 0).
    public static func metaText(counts: [Int], leaves: [LODPyramid.Leaf], tree: LODPyramid.Node, chunkSplats: Int, fit: Bounds) -> String {
        let layout = StreamedSOGLayout(levelCount: counts.count, leaves: leaves, chunkSplats: chunkSplats)
        return metaJSON(counts: counts, leaves: leaves, tree: tree, names: layout.names, place: layout.place, fit: fit)
    }

    /// Throws unless `folder` is absent, empty or a streamed SOG (holds `metaName`): what may be
    /// replaced by a new tree. `metaPath` names the output in the error.
    public static func checkReplaceable(_ folder: String, metaPath: String) throws {
        let fm = FileManager.default
        guard fm.fileExists(atPath: folder) else { return }
        let inside = try fm.contentsOfDirectory(atPath: folder)
        guard inside.isEmpty || inside.contains((metaPath as NSString).lastPathComponent) else {
            throw SceneIOError.unwritable(file: metaPath, reason: "\(folder) exists and is not a streamed SOG; choose an empty or new folder")
        }
    }
}
