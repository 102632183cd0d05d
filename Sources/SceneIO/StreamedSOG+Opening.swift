// StreamedSOG+Opening — finding and reading lod-meta.json: the folder or file a user names, the
// size limit, the tree (through LODTreeParser), and each chunk's small meta.json (never its images).
import Foundation
import JSONInput
import RenderCore

extension StreamedSOG {
    // MARK: - Opening

    /// The `lod-meta.json` a path names: the file itself, or a folder holding one (and no
    /// `meta.json`: that folder is a plain SOG). Nil when the path is neither.
    public static func metaPath(for path: String) -> String? {
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir) else { return nil }
        if isDir.boolValue {
            let meta = (path as NSString).appendingPathComponent("meta.json")
            let lod = (path as NSString).appendingPathComponent("lod-meta.json")
            return !FileManager.default.fileExists(atPath: meta) && FileManager.default.fileExists(atPath: lod) ? lod : nil
        }
        return isMetaName(path) ? path : nil
    }

    /// True when a file name is `lod-meta.json` (case-insensitive; any folder).
    public static func isMetaName(_ path: String) -> Bool {
        (path as NSString).lastPathComponent.lowercased() == "lod-meta.json"
    }

    /// Reads `lod-meta.json` (or the folder holding it) and the chunks' `meta.json` files.
    /// - Throws: `SceneIOError` (one line) when lod-meta.json is missing, malformed or beyond
    ///   `limits`, or when no chunk of it can be read at all.
    public static func open(_ path: String, limits: Limits = Limits()) throws -> StreamedSOG {
        let file = metaPath(for: path) ?? path
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: file, isDirectory: &isDir), !isDir.boolValue else {
            throw SceneIOError.unreadable(file: file, reason: FileManager.default.fileExists(atPath: path)
                                          ? "no lod-meta.json in this folder (a streamed SOG's top level)" : "no such file")
        }
        let size = RegularFile.bytes(file) ?? 0
        guard size <= limits.maxMetaBytes else {
            throw SceneIOError.tooLarge(file: file, offset: 0, expected: "a lod-meta.json of at most \(limits.maxMetaBytes) bytes", found: "\(size) bytes")
        }
        let data: Data
        do { data = try Data(contentsOf: URL(fileURLWithPath: file)) } catch {
            throw SceneIOError.unreadable(file: file, reason: error.localizedDescription)
        }
        let dir = (file as NSString).deletingLastPathComponent
        return try parse(data, file: file, folder: dir.isEmpty ? "." : dir, limits: limits)
    }

    /// Parses lod-meta.json's text; chunk names resolve against `folder`.
    /// - Parameter checkChunks: read each chunk's `meta.json` to learn its splat count and flag
    ///   missing chunks and out-of-range ranges (false: trust the file; tests of the structure).
    public static func parse(_ data: Data, file: String, folder: String, limits: Limits = Limits(),
                             checkChunks: Bool = true) throws -> StreamedSOG {
        guard data.count <= limits.maxMetaBytes else {
            throw SceneIOError.tooLarge(file: file, offset: 0, expected: "a lod-meta.json of at most \(limits.maxMetaBytes) bytes", found: "\(data.count) bytes")
        }
        let levels: Int, chunks0: [Chunk], environment: String?, version: Int?, nodes: [Node], fit: Bounds?
        var tableProblem: JSONPathError?
        do {
            let top = try JSONNode.parse(data)
            var p = LODTreeParser(limits: limits)
            _ = try top.members()
            levels = try top.required("lodLevels", "a level count").integer(in: 1...limits.maxLevels, "a level count 1…\(limits.maxLevels)")
            p.levels = levels
            let names = try top.required("filenames", "chunk file names")
                .array(count: 1...limits.maxFiles, "an array of 1…\(limits.maxFiles) chunk file names")
            chunks0 = try names.map { n in
                let s = try SOGMeta.checkedName(n)
                return Chunk(name: s, path: chunkPath(s, folder: folder), count: nil, shDegree: 0, fileBytes: 0, problem: nil, level: nil)
            }
            p.fileCount = chunks0.count
            let env = try top.optional("environment")
            environment = try env.flatMap { $0.isNull ? nil : try SOGMeta.checkedName($0) }
            version = try? top.optional("version")?.integer()
            fit = try top.optional("fitBounds").flatMap { b -> Bounds? in
                let lo = try b.required("min", "three numbers").numbers(3), hi = try b.required("max", "three numbers").numbers(3)
                guard (lo + hi).allSatisfy({ $0.isFinite && abs($0) < 1e30 }), zip(lo, hi).allSatisfy({ $0 <= $1 }) else {
                    throw b.fail("a box with finite min ≤ max", found: "\(lo) … \(hi)")
                }
                return Bounds(min: Vec3(Float(lo[0]), Float(lo[1]), Float(lo[2])), max: Vec3(Float(hi[0]), Float(hi[1]), Float(hi[2])))
            }
            let tree = try top.required("tree", "the node tree")
            var leaves: [Node] = []
            try p.walk(tree, depth: 0, into: &leaves)
            guard !leaves.isEmpty else { throw tree.fail("at least one leaf (a node with lods)", found: "none") }
            tableProblem = p.levelErrorProblem
            // One malformed table drops them all: a budget is spent by tables only when every leaf has one.
            nodes = tableProblem == nil ? leaves : leaves.map { var n = $0; n.levelErrors = nil; return n }
        } catch let e as JSONPathError {
            throw e.sceneIOError(file: file, entry: "lod-meta.json")
        }
        var chunks = chunks0

        // Which level names each chunk (for info and load priorities).
        for n in nodes {
            for (level, r) in n.levels.enumerated() { if let r, chunks[r.chunk].level == nil { chunks[r.chunk].level = level } }
        }
        var warnings: [String] = []
        if let environment { warnings.append("\(file): environment \(SceneIOError.clean(environment)) is not drawn (streamed SOG environments are not supported)") }
        if let tableProblem {
            warnings.append("\(tableProblem.sceneIOError(file: file, entry: "lod-meta.json")); levels are chosen without the level errors")
        }
        var checkedNodes = nodes
        if checkChunks {
            for i in chunks.indices where chunks[i].level != nil {
                inspect(&chunks[i])
                if let why = chunks[i].problem { warnings.append("\(file): chunk \(SceneIOError.clean(chunks[i].name)): \(why)") }
            }
            // Ranges that reach past their chunk's splats are dropped (reported once per chunk).
            var reported = Set<Int>()
            for ni in checkedNodes.indices {
                for (level, r) in checkedNodes[ni].levels.enumerated() {
                    guard let r, let count = chunks[r.chunk].count, r.offset + r.count > count else { continue }
                    checkedNodes[ni].levels[level] = nil
                    if reported.insert(r.chunk).inserted {
                        warnings.append("\(file): node \(ni) level \(level): splats \(r.offset)..<\(r.offset + r.count) lie outside chunk \(SceneIOError.clean(chunks[r.chunk].name)) (\(count) splats); such ranges are skipped")
                    }
                }
            }
            let usable = checkedNodes.contains { n in n.levels.contains { r in r.map { chunks[$0.chunk].problem == nil } ?? false } }
            guard usable else {
                let first = chunks.first { $0.level != nil && $0.problem != nil }
                throw SceneIOError.unreadable(file: file, reason: "no chunk of this streamed SOG can be read"
                                              + (first.map { " (chunk \($0.name): \($0.problem ?? ""))" } ?? " (no usable ranges)"))
            }
        }
        var sog = StreamedSOG(file: file, folder: folder, levelCount: levels, chunks: chunks, nodes: checkedNodes,
                              environment: environment, version: version, warnings: warnings)
        sog.fitBounds = fit
        return sog
    }

    /// Where a chunk name points: `…/meta.json` → its folder; anything else (a `.sog`) → itself.
    static func chunkPath(_ name: String, folder: String) -> String {
        let full = (folder as NSString).appendingPathComponent(name)
        if (name as NSString).lastPathComponent.lowercased() == "meta.json" {
            let d = (full as NSString).deletingLastPathComponent
            return d.isEmpty ? "." : d
        }
        return full
    }

    /// Reads a chunk's `meta.json` (or a `.sog`'s size) to learn its count, SH bands and bytes.
    static func inspect(_ c: inout Chunk) {
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: c.path, isDirectory: &isDir) else { c.problem = "missing (no such file or folder)"; return }
        if !isDir.boolValue {
            // A bundled .sog: its count is only known once read.
            c.fileBytes = RegularFile.bytes(c.path) ?? 0
            return
        }
        do {
            let folder = SOGFolder(file: c.path)
            let data = try folder.read("meta.json", cap: SOGReader.Limits().maxMetaBytes)
            let meta = try SOGMeta.parse(data, file: c.path)
            c.count = meta.count
            c.shDegree = meta.sh.map { $0.bands ?? 0 } ?? 0
            var bytes = data.count
            var names = [meta.meansLower, meta.meansUpper, meta.quatsFile, meta.scalesFile, meta.sh0File]
            if let sh = meta.sh { names += sh.files }
            for n in names {
                let f = (c.path as NSString).appendingPathComponent(n)
                guard let size = RegularFile.bytes(f) else {
                    c.problem = "\(SceneIOError.clean(n)) is missing"; return
                }
                bytes += size
            }
            c.fileBytes = bytes
        } catch {
            c.problem = "\(error)"
        }
    }
}
