// LODTreeParser — walks lod-meta.json's node tree, checking every field against the limits and
// naming it by its key path (`tree.children[0].lods.2.count`) in errors.
import Foundation
import JSONInput
import RenderCore

/// Walks the node tree, checking every field and naming it in errors.
struct LODTreeParser {
    let limits: StreamedSOG.Limits
    var levels = 0, fileCount = 0
    var nodeCount = 0, rangeCount = 0
    /// The first malformed `levelErrors` (another writer's, or an older SplatFrame's shape): the
    /// file still draws, by the spacing rule, so it is a warning, not an error.
    var levelErrorProblem: JSONPathError?

    init(limits: StreamedSOG.Limits) { self.limits = limits }

    func vec3(_ v: JSONNode) throws -> Vec3 {
        let n = try v.numbers(3)
        return Vec3(Float(n[0]), Float(n[1]), Float(n[2]))
    }

    mutating func walk(_ v: JSONNode, depth: Int, into leaves: inout [StreamedSOG.Node]) throws {
        guard depth <= limits.maxDepth else { throw v.fail("a tree at most \(limits.maxDepth) levels deep", found: "deeper") }
        nodeCount += 1
        guard nodeCount <= limits.maxNodes else { throw v.fail("at most \(limits.maxNodes) nodes", found: "more") }
        try v.requireObject()
        let bound = try v.required("bound", "{min, max}")
        let lo = try vec3(bound.required("min", "3 numbers")), hi = try vec3(bound.required("max", "3 numbers"))
        guard lo.x <= hi.x, lo.y <= hi.y, lo.z <= hi.z else {
            throw bound.fail("min ≤ max on every axis", found: "min (\(lo.x), \(lo.y), \(lo.z)) max (\(hi.x), \(hi.y), \(hi.z))")
        }
        switch (try v.optional("lods"), try v.optional("children")) {
        case (let lods?, nil):
            let entries = try lods.members()
            rangeCount += levels
            guard rangeCount <= limits.maxRanges else { throw v.fail("at most \(limits.maxRanges) leaf levels in all", found: "more") }
            var ranges = [StreamedSOG.Range?](repeating: nil, count: levels)
            for (key, e) in entries.sorted(by: { $0.key < $1.key }) {
                guard let level = Int(key), level >= 0, level < levels, String(level) == key else {
                    throw e.fail("a level 0…\(levels - 1) (lodLevels is \(levels))", found: "key \(SceneIOError.clean(key))")
                }
                try e.requireObject()
                let f = try e.required("file", "an index into filenames").integer(in: 0...max(0, fileCount - 1), "an index into filenames (0…\(fileCount - 1))")
                let offset = try e.optional("offset")?.integer(in: 0...limits.maxSplats, "a splat offset 0…\(limits.maxSplats)") ?? 0
                let count = try e.required("count", "a splat count").integer(in: 0...limits.maxSplats, "a splat count 0…\(limits.maxSplats)")
                ranges[level] = StreamedSOG.Range(chunk: f, offset: offset, count: count)
            }
            var table: LevelErrorTable?
            if let e = try v.optional("levelErrors") {
                let want = LevelErrorTable.sizes.count * levels
                let expected = "\(want) numbers ≥ 0 (\(LevelErrorTable.sizes.count) sizes × \(levels) levels)"
                do {
                    let items = try e.array(count: want...want, expected)
                    let values = try items.map { Float(try $0.number(in: 0...1e30, "a number ≥ 0")) }
                    guard let t = LevelErrorTable(values: values, levels: levels) else { throw e.fail(expected, found: "other numbers") }
                    table = t
                } catch let problem as JSONPathError {
                    if levelErrorProblem == nil { levelErrorProblem = problem }
                }
            }
            leaves.append(StreamedSOG.Node(bounds: Bounds(min: lo, max: hi), levels: ranges, levelErrors: table))
        case (nil, let children?):
            for child in try children.array("an array of nodes") { try walk(child, depth: depth + 1, into: &leaves) }
        case (nil, nil):
            throw v.fail("children or lods", found: "neither")
        case (_?, _?):
            throw v.fail("children or lods", found: "both")
        }
    }
}
