// LODTreeParser — walks lod-meta.json's node tree, checking every field against the limits and
// naming it by its path (`tree/0/lods/2/offset`) in errors.
import Foundation
import RenderCore

/// Walks the node tree, checking every field and naming it in errors.
struct LODTreeParser {
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
