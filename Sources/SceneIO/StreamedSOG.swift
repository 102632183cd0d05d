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
        /// Bytes of lod-meta.json.
        public var maxMetaBytes = 32 << 20
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
    /// Problems that were read past, one line each naming lod-meta.json or the chunk: missing or
    /// unreadable chunks, ranges outside their chunk.
    public let warnings: [String]

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
        let size = ((try? FileManager.default.attributesOfItem(atPath: file))?[.size] as? NSNumber)?.intValue ?? 0
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
        let any: Any
        do { any = try JSONSerialization.jsonObject(with: data) } catch {
            let why = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? error.localizedDescription
            throw SceneIOError.badEntry(file: file, entry: "lod-meta.json", expected: "valid JSON", found: why)
        }
        var p = TreeParser(file: file, limits: limits)
        guard let top = any as? [String: Any] else { throw p.fail("", "a JSON object", JSONValue.describe(any)) }

        guard let levels = JSONValue.int(top["lodLevels"]), levels >= 1, levels <= limits.maxLevels else {
            throw p.fail("lodLevels", "a level count 1…\(limits.maxLevels)", JSONValue.describe(top["lodLevels"]))
        }
        p.levels = levels
        guard let names = top["filenames"] as? [Any], !names.isEmpty, names.count <= limits.maxFiles else {
            throw p.fail("filenames", "an array of 1…\(limits.maxFiles) chunk file names", JSONValue.describe(top["filenames"]))
        }
        var chunks: [Chunk] = []
        chunks.reserveCapacity(names.count)
        for (i, n) in names.enumerated() {
            guard let s = n as? String else { throw p.fail("filenames/\(i)", "a file name", JSONValue.describe(n)) }
            try SOGMeta.checkName(s, field: "filenames/\(i)", file: file, entry: "lod-meta.json")
            chunks.append(Chunk(name: s, path: chunkPath(s, folder: folder), count: nil, shDegree: 0, fileBytes: 0, problem: nil, level: nil))
        }
        p.fileCount = chunks.count
        var environment: String?
        switch top["environment"] {
        case nil, is NSNull: environment = nil
        case let s as String:
            try SOGMeta.checkName(s, field: "environment", file: file, entry: "lod-meta.json")
            environment = s
        case let v: throw p.fail("environment", "a file name or null", JSONValue.describe(v))
        }
        let version = JSONValue.int(top["version"])

        guard let tree = top["tree"] else { throw p.fail("tree", "the node tree", "nothing") }
        var nodes: [Node] = []
        try p.walk(tree, path: "tree", depth: 0, into: &nodes)
        guard !nodes.isEmpty else { throw p.fail("tree", "at least one leaf (a node with lods)", "none") }

        // Which level names each chunk (for info and load priorities).
        for n in nodes {
            for (level, r) in n.levels.enumerated() { if let r, chunks[r.chunk].level == nil { chunks[r.chunk].level = level } }
        }
        var warnings: [String] = []
        if let environment { warnings.append("\(file): environment \(SceneIOError.clean(environment)) is not drawn (streamed SOG environments are not supported)") }
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
        return StreamedSOG(file: file, folder: folder, levelCount: levels, chunks: chunks, nodes: checkedNodes,
                           environment: environment, version: version, warnings: warnings)
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
            c.fileBytes = ((try? FileManager.default.attributesOfItem(atPath: c.path))?[.size] as? NSNumber)?.intValue ?? 0
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
            if let sh = meta.sh { names += [sh.centroidsFile, sh.labelsFile] }
            for n in names {
                let f = (c.path as NSString).appendingPathComponent(n)
                guard let size = (try? FileManager.default.attributesOfItem(atPath: f))?[.size] as? NSNumber else {
                    c.problem = "\(SceneIOError.clean(n)) is missing"; return
                }
                bytes += size.intValue
            }
            c.fileBytes = bytes
        } catch {
            c.problem = "\(error)"
        }
    }

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

    /// Bytes on disk of lod-meta.json and every chunk a leaf uses.
    public var fileBytes: Int {
        let meta = ((try? FileManager.default.attributesOfItem(atPath: file))?[.size] as? NSNumber)?.intValue ?? 0
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
        let c = chunks[index]
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: c.path, isDirectory: &isDir) else {
            throw SceneIOError.unreadable(file: c.path, reason: "no such file or folder (chunk \(c.name) of \(file))")
        }
        let result: ReadResult
        if isDir.boolValue {
            result = try SOGReader.readFolder(c.path, limits: limits, progress: nil)
        } else {
            let data: Data
            do { data = try Data(contentsOf: URL(fileURLWithPath: c.path), options: .alwaysMapped) } catch {
                throw SceneIOError.unreadable(file: c.path, reason: error.localizedDescription)
            }
            result = try data.withUnsafeBytes { try SOGReader.readBundled(ByteView(bytes: $0, file: c.path), limits: limits, progress: nil) }
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

/// Walks the node tree, checking every field and naming it in errors.
private struct TreeParser {
    let file: String
    let limits: StreamedSOG.Limits
    var levels = 0, fileCount = 0
    var nodeCount = 0, rangeCount = 0

    init(file: String, limits: StreamedSOG.Limits) { self.file = file; self.limits = limits }

    /// An error naming `path` inside lod-meta.json (long paths keep their start and end).
    func fail(_ path: String, _ expected: String, _ found: String) -> SceneIOError {
        var p = path
        if p.count > 56 { p = String(p.prefix(20)) + "…" + String(p.suffix(34)) }
        return .badEntry(file: file, entry: p.isEmpty ? "top level" : p, expected: expected, found: found)
    }

    func number(_ v: Any?, _ path: String) throws -> Float {
        guard let d = (v as? NSNumber)?.doubleValue, d.isFinite, abs(d) <= JSONValue.maxMagnitude else { throw fail(path, "a finite number", JSONValue.describe(v)) }
        return Float(d)
    }

    func vec3(_ v: Any?, _ path: String) throws -> Vec3 {
        guard let a = v as? [Any], a.count == 3 else { throw fail(path, "3 numbers", JSONValue.describe(v)) }
        return Vec3(try number(a[0], path + "/0"), try number(a[1], path + "/1"), try number(a[2], path + "/2"))
    }

    mutating func walk(_ v: Any, path: String, depth: Int, into leaves: inout [StreamedSOG.Node]) throws {
        guard depth <= limits.maxDepth else { throw fail(path, "a tree at most \(limits.maxDepth) levels deep", "deeper") }
        nodeCount += 1
        guard nodeCount <= limits.maxNodes else { throw fail(path, "at most \(limits.maxNodes) nodes", "more") }
        guard let node = v as? [String: Any] else { throw fail(path, "a node object", JSONValue.describe(v)) }
        guard let bound = node["bound"] as? [String: Any] else { throw fail(path + "/bound", "{min, max}", JSONValue.describe(node["bound"])) }
        let lo = try vec3(bound["min"], path + "/bound/min"), hi = try vec3(bound["max"], path + "/bound/max")
        guard lo.x <= hi.x, lo.y <= hi.y, lo.z <= hi.z else {
            throw fail(path + "/bound", "min ≤ max on every axis", "min (\(lo.x), \(lo.y), \(lo.z)) max (\(hi.x), \(hi.y), \(hi.z))")
        }
        switch (node["lods"], node["children"]) {
        case (let lods?, nil):
            guard let l = lods as? [String: Any] else { throw fail(path + "/lods", "an object of levels", JSONValue.describe(lods)) }
            rangeCount += levels
            guard rangeCount <= limits.maxRanges else { throw fail(path, "at most \(limits.maxRanges) leaf levels in all", "more") }
            var ranges = [StreamedSOG.Range?](repeating: nil, count: levels)
            for (key, value) in l {
                let kp = path + "/lods/" + key
                guard let level = Int(key), level >= 0, level < levels, String(level) == key else {
                    throw fail(kp, "a level 0…\(levels - 1) (lodLevels is \(levels))", "key \(SceneIOError.clean(key))")
                }
                guard let e = value as? [String: Any] else { throw fail(kp, "{file, offset, count}", JSONValue.describe(value)) }
                guard let f = JSONValue.int(e["file"]), f >= 0, f < fileCount else {
                    throw fail(kp + "/file", "an index into filenames (0…\(fileCount - 1))", JSONValue.describe(e["file"]))
                }
                let offset = e["offset"] == nil ? 0 : JSONValue.int(e["offset"]) ?? -1
                guard offset >= 0, offset <= limits.maxSplats else {
                    throw fail(kp + "/offset", "a splat offset 0…\(limits.maxSplats)", JSONValue.describe(e["offset"]))
                }
                guard let count = JSONValue.int(e["count"]), count >= 0, count <= limits.maxSplats else {
                    throw fail(kp + "/count", "a splat count 0…\(limits.maxSplats)", JSONValue.describe(e["count"]))
                }
                ranges[level] = StreamedSOG.Range(chunk: f, offset: offset, count: count)
            }
            leaves.append(StreamedSOG.Node(bounds: Bounds(min: lo, max: hi), levels: ranges))
        case (nil, let children?):
            guard let c = children as? [Any] else { throw fail(path + "/children", "an array of nodes", JSONValue.describe(children)) }
            for (i, child) in c.enumerated() { try walk(child, path: path + "/\(i)", depth: depth + 1, into: &leaves) }
        case (nil, nil):
            throw fail(path, "children or lods", "neither")
        case (_?, _?):
            throw fail(path, "children or lods", "both")
        }
    }
}
