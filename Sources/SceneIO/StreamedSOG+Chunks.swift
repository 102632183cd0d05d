// StreamedSOG+Chunks — decoding chunks: one chunk through SOGReader under the limits, or the finest
// level of every leaf assembled into one cloud (convert, info, render of the whole capture).
import Foundation
import RenderCore

extension StreamedSOG {
    // MARK: - Reading chunks

    /// Decodes chunk `index` through `SOGReader` (a folder's meta.json and images, or a `.sog`).
    /// - Throws: `SceneIOError` naming the chunk; the count is checked against the ranges that use it.
    public func loadChunk(_ index: Int) throws -> SplatCloud {
        try loadChunk(index, limits: SOGReader.Limits())
    }

    func loadChunk(_ index: Int, limits: SOGReader.Limits) throws -> SplatCloud {
        guard chunks.indices.contains(index) else {
            throw SceneIOError.badEntry(file: file, entry: "filenames", expected: "chunk index < \(chunks.count)", found: "\(index)")
        }
        if let chunkClouds { return chunkClouds[index] }
        let c = chunks[index]
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: c.path, isDirectory: &isDir) else {
            throw SceneIOError.unreadable(file: c.path, reason: "no such file or folder (chunk \(c.name) of \(file))")
        }
        let result: ReadResult
        if isDir.boolValue {
            result = try SOGReader.readFolder(c.path, limits: limits, progress: nil)
        } else {
            result = try SOGReader.readBundled(path: c.path, limits: limits, progress: nil)
        }
        guard case .splats(let cloud) = result.scene else {
            throw SceneIOError.unsupported(file: c.path, reason: "a chunk must hold splats")
        }
        return cloud
    }

    /// The finest usable level of every leaf, as one cloud (what `SceneFile.load` returns for a
    /// streamed SOG). Chunks that fail to load are skipped, the leaf falling back to its next
    /// usable level; each problem is one line of `warnings`.
    public func loadFinest(progress: SceneLoadProgress? = nil) throws -> (cloud: SplatCloud, warnings: [String]) {
        var warnings = self.warnings
        var failed = Set<Int>()
        var cache: (index: Int, cloud: SplatCloud)?
        var out = SplatCloud(shDegree: shDegree)
        // Leaves grouped by the chunk of their finest level, loading each chunk once (retrying
        // the leaves whose chunk failed at their next level).
        var pending = nodes.indices.map { ($0, 0) }          // (node, first level to try)
        var done = 0
        let total = nodes.count
        progress?(0, total)
        while !pending.isEmpty {
            var next: [(Int, Int)] = []
            var byChunk: [Int: [(node: Int, range: Range, level: Int)]] = [:]
            for (n, from) in pending {
                var found = false
                for level in from..<levelCount {
                    if let r = usableRange(node: n, level: level), !failed.contains(r.chunk) {
                        byChunk[r.chunk, default: []].append((n, r, level)); found = true; break
                    }
                }
                if !found { done += 1 }
            }
            for chunk in byChunk.keys.sorted() {
                let cloud: SplatCloud
                if let c = cache, c.index == chunk { cloud = c.cloud } else {
                    do { cloud = try loadChunk(chunk); cache = (chunk, cloud) } catch {
                        failed.insert(chunk)
                        warnings.append("\(file): chunk \(SceneIOError.clean(chunks[chunk].name)) skipped: \(error)")
                        for e in byChunk[chunk]! { next.append((e.node, e.level + 1)) }
                        continue
                    }
                }
                for e in byChunk[chunk]! {
                    guard e.range.offset + e.range.count <= cloud.count else {
                        warnings.append("\(file): node \(e.node) level \(e.level): splats beyond chunk \(SceneIOError.clean(chunks[chunk].name))'s \(cloud.count) skipped")
                        next.append((e.node, e.level + 1)); continue
                    }
                    out.append(contentsOf: cloud, range: e.range.indices)
                    done += 1
                }
                progress?(min(done, total), total)
            }
            pending = next
        }
        progress?(total, total)
        return (out, warnings)
    }
}

extension SplatCloud {
    /// Appends splats `range` of `other`, converting SH rest coefficients to this cloud's degree
    /// (missing bands are zero, extra ones dropped).
    mutating func append(contentsOf other: SplatCloud, range: Swift.Range<Int>) {
        positions += other.positions[range]; scales += other.scales[range]; rotations += other.rotations[range]
        opacities += other.opacities[range]; dc += other.dc[range]
        let mine = shRestCount * 3, theirs = other.shRestCount * 3
        if mine == theirs {
            shRest += other.shRest[(range.lowerBound * mine)..<(range.upperBound * mine)]
        } else if mine > 0 {
            let keep = min(mine, theirs)
            for i in range {
                for j in 0..<mine { shRest.append(j < keep ? other.shRest[i * theirs + j] : 0) }
            }
        }
    }
}
