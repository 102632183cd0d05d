// StreamedSOG+Info — what `info` reports of a streamed SOG: bytes on disk, variant, per-level elements.
import Foundation
import RenderCore

extension StreamedSOG {
    /// Bytes on disk of lod-meta.json and every chunk a leaf uses.
    public var fileBytes: Int {
        let meta = RegularFile.bytes(file) ?? 0
        return meta + chunks.reduce(0) { $0 + ($1.level != nil ? $1.fileBytes : 0) }
    }

    /// The `SceneInfo.variant` of a streamed SOG: it says so, with its levels, leaves and chunks.
    public var variant: String {
        "streamed SOG (lod-meta.json): \(levelCount) levels, \(nodes.count) leaf node\(nodes.count == 1 ? "" : "s"), \(chunks.count) chunk file\(chunks.count == 1 ? "" : "s")"
    }

    /// One `SceneInfo.Element` per level: its splat count, leaves and chunk files.
    public var elements: [SceneInfo.Element] {
        (0..<levelCount).map { level in
            let used = nodes.filter { $0.levels[level] != nil }.count
            var files: [String] = []
            for n in nodes { if let r = n.levels[level], !files.contains(chunks[r.chunk].name) { files.append(chunks[r.chunk].name) } }
            let missing = files.filter { f in chunks.first { $0.name == f }?.problem != nil }
            var props = ["\(used) of \(nodes.count) leaves", "chunks " + files.prefix(8).joined(separator: ", ") + (files.count > 8 ? " … (\(files.count))" : "")]
            if !missing.isEmpty { props.append("unreadable: " + missing.prefix(8).joined(separator: ", ")) }
            return SceneInfo.Element(name: "level \(level)", count: splatCount(level: level), properties: props)
        }
    }
}
