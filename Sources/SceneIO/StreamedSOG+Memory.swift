// StreamedSOG+Memory — a level-of-detail tree held in memory: the same nodes, chunks and ranges
// `StreamedSOGWriter` would write for a pyramid, with each chunk's splats kept as floats instead
// of encoded into SOG images. What `render`, `bench` and `export` draw for a plain capture under a
// splat budget when no cache folder is named (nothing touches the disk).
import Foundation
import RenderCore

extension StreamedSOG {
    /// The streamed SOG `StreamedSOGWriter.write(pyramid, chunkSplats:)` would write, in memory:
    /// leaves in tree order, chunks cut the same way, `fitBounds` the finest level's
    /// `RobustBounds`. Frames differ from the written file's only by SOG's quantisation.
    /// `name` stands for lod-meta.json in messages. The pyramid is consumed: each level is freed
    /// once its chunks are copied out, so the peak holds about one copy of it, not two.
    public static func inMemory(_ pyramid: consuming LODPyramid, chunkSplats: Int = StreamedSOGWriter.defaultChunkSplats,
                                name: String) -> StreamedSOG {
        let layout = StreamedSOGLayout(levelCount: pyramid.levels.count, leaves: pyramid.leaves, chunkSplats: max(1, chunkSplats))
        let shDegree = pyramid.levels.first?.shDegree ?? 0
        var chunks: [Chunk] = []
        var clouds: [SplatCloud] = []
        let fit = pyramid.levels.first.map { RobustBounds.of($0.positions) }
        let leaves = pyramid.leaves, tree = pyramid.tree, levelCount = pyramid.levels.count
        for (k, f) in layout.files.enumerated() {
            clouds.append(pyramid.levels[f.level].subset(ranges: f.ranges))
            if k + 1 == layout.files.count || layout.files[k + 1].level != f.level {
                pyramid.levels[f.level] = SplatCloud(shDegree: shDegree)   // files go level by level
            }
            chunks.append(Chunk(name: layout.names[k], path: name, count: f.count, shDegree: shDegree,
                                fileBytes: 0, problem: nil, level: f.level))
        }
        var nodes: [Node] = []
        func walk(_ n: LODPyramid.Node) {
            switch n {
            case .leaf(let i):
                let leaf = leaves[i]
                let ranges: [Range?] = leaf.ranges.indices.map { l in
                    let p = layout.place[i][l]
                    return leaf.ranges[l].isEmpty || p.file < 0 ? nil : Range(chunk: p.file, offset: p.offset, count: leaf.ranges[l].count)
                }
                nodes.append(Node(bounds: leaf.bounds, levels: ranges, levelErrors: leaf.levelErrors))
            case .split(let a, let b):
                walk(a); walk(b)
            }
        }
        walk(tree)
        var sog = StreamedSOG(file: name, folder: (name as NSString).deletingLastPathComponent, levelCount: levelCount,
                              chunks: chunks, nodes: nodes, environment: nil, version: 1, warnings: [])
        sog.fitBounds = fit
        sog.chunkClouds = clouds
        return sog
    }
}
