// SceneIO — StreamedSOG: a PlayCanvas streamed SOG with level of detail (`lod-meta.json` and the
// chunk files it names), as splat-transform's write-lod.ts writes it (FORMATS.md, "Streamed SOG").
//
// lod-meta.json:
//   { "lodLevels": L, "filenames": ["0_0/meta.json", …], "environment": null | name,
//     "tree": node }                         (newer writers add version, count, counts: ignored)
//   node = { "bound": {"min": [x,y,z], "max": [x,y,z]},
//            "children": [node, …] }         an inner node, or
//          { "bound": …, "lods": { "0": {"file": i, "offset": o, "count": n}, "1": …, … } }
//                                           a leaf: per level, splats o ..< o + n of chunk file i
// Each chunk file is an unbundled SOG v2 (a folder's `meta.json`; a `.sog` is accepted too); its
// splats are read through `SOGReader`. Level 0 is the finest; a leaf may lack some levels.
//
// Contract: `open` reads lod-meta.json (at most `Limits.maxMetaBytes`) and each chunk's small
// `meta.json`, never a chunk's images. The structure is validated (one-line `SceneIOError`
// naming lod-meta.json and the field, e.g. `tree/0/lods/2/offset`); memory is bounded by
// `Limits` whatever the file claims. A chunk that is missing or unreadable, or a range that
// lies outside its chunk, is not fatal: it is listed in `warnings` (and in `Chunk.problem`) and
// `usableRange` skips it — a viewer draws what is there.
import Foundation
import RenderCore

/// A streamed (level-of-detail) SOG: the node tree of `lod-meta.json` and its chunk files.
public struct StreamedSOG: Sendable {
    /// Caps that bound what a hostile `lod-meta.json` can make the reader allocate.
    public struct Limits: Sendable {
        /// Bytes of lod-meta.json: its leaves list every level's range, about 1.3 KB a leaf of
        /// 1,024 splats, so a 64M-splat tree's is 86 MB and a 100M one's ~140 MB.
        public var maxMetaBytes = 256 << 20
        /// Detail levels.
        public var maxLevels = 64
        /// Chunk files named in `filenames`.
        public var maxFiles = 1 << 16
        /// Tree nodes (inner and leaves).
        public var maxNodes = 1 << 20
        /// Leaves × levels (the ranges kept in memory).
        public var maxRanges = 1 << 22
        /// Nesting depth of the tree.
        public var maxDepth = 128
        /// Splats in one range (and its offset): a SOG image holds at most 2^26 texels.
        public var maxSplats = 1 << 26
        public init() {}
    }

    /// Splats `offset ..< offset + count` of chunk file `chunk`.
    public struct Range: Sendable, Equatable, Hashable {
        public var chunk: Int
        public var offset: Int
        public var count: Int
        public init(chunk: Int, offset: Int, count: Int) { self.chunk = chunk; self.offset = offset; self.count = count }
        /// The splat indices inside the chunk.
        public var indices: Swift.Range<Int> { offset..<(offset + count) }
    }

    /// A leaf of the tree: a box and, per level, where its splats are.
    public struct Node: Sendable, Equatable {
        /// The node's bound (model space, the file's frame): it holds the splats' extents.
        public var bounds: Bounds
        /// Index = level (0 finest); nil where the file gives no entry for that level.
        public var levels: [Range?]
        /// What each level loses against the finest (`levelErrors`, SplatFrame's writer), nil when
        /// the file does not say.
        public var levelErrors: LevelErrorTable? = nil
        /// Splats at `level` (0 when the level is absent).
        public func count(level: Int) -> Int { level >= 0 && level < levels.count ? levels[level]?.count ?? 0 : 0 }
    }

    /// One chunk file (an unbundled SOG folder, or a `.sog`).
    public struct Chunk: Sendable, Equatable {
        /// The name as `filenames` gives it, e.g. `0_0/meta.json`.
        public var name: String
        /// What to read: the folder holding its `meta.json`, or the `.sog` file.
        public var path: String
        /// Splats the chunk's meta says it holds (nil when its meta could not be read).
        public var count: Int?
        /// SH bands of the chunk (0 when unknown).
        public var shDegree: Int
        /// Bytes of its files on disk (meta.json and images), 0 when unknown.
        public var fileBytes: Int
        /// Why the chunk cannot be used (missing, unreadable, malformed), nil when it looks fine.
        public var problem: String?
        /// The level that names it (the first one, in tree order), nil when no leaf uses it.
        public var level: Int?
    }

    /// The `lod-meta.json` path.
    public let file: String
    /// The folder chunk names are relative to.
    public let folder: String
    /// Levels of detail (`lodLevels`); 0 is the finest.
    public let levelCount: Int
    public let chunks: [Chunk]
    /// The leaves of the tree, in depth-first order.
    public let nodes: [Node]
    /// The `environment` chunk name, if any (not drawn: reported in `warnings`).
    public let environment: String?
    /// The `version` field, when the writer set one.
    public let version: Int?
    /// The box to fit the capture by, when the writer recorded one (`fitBounds`: SplatFrame's
    /// writer records the finest level's `RobustBounds`); nil for other writers' files.
    public internal(set) var fitBounds: Bounds? = nil
    /// The chunks' splats when the tree was built in memory (`StreamedSOG.inMemory`), one cloud
    /// per chunk; nil when chunks are read from files.
    public internal(set) var chunkClouds: [SplatCloud]? = nil
    /// Problems that were read past, one line each naming lod-meta.json or the chunk: missing or
    /// unreadable chunks, ranges outside their chunk.
    public let warnings: [String]

    // MARK: - Queries

    /// Splats at `level` over all leaves (ranges as the file gives them, usable or not).
    public func splatCount(level: Int) -> Int { nodes.reduce(0) { $0 + $1.count(level: level) } }

    /// SH bands the renderer will see: the highest of the chunks' (0…3).
    public var shDegree: Int { min(3, chunks.map(\.shDegree).max() ?? 0) }

    /// The union of the leaves' bounds.
    public var bounds: Bounds {
        nodes.reduce(Bounds.empty) { $0.including($1.bounds.min).including($1.bounds.max) }
    }

    /// Node `node`'s range at `level` when it exists and its chunk has no known problem.
    public func usableRange(node: Int, level: Int) -> Range? {
        guard node >= 0, node < nodes.count, level >= 0, level < levelCount, level < nodes[node].levels.count,
              let r = nodes[node].levels[level], chunks[r.chunk].problem == nil else { return nil }
        return r
    }
}
