// SplatLOD — RegionResult: one region's built levels, kept on disk until the chunks holding them
// are written. `NAME.levels`: the region's levels one after another as records (level 0 first;
// each level leaf by leaf, as in `LODPyramid`); `NAME.result`: the rest of its `LODPyramid`
// (leaves' boxes, ranges and level errors, its tree) and its share of the fit sample — JSON,
// floats as bit patterns so a restarted build reads back exactly what was built.
import Foundation
import RenderCore
import SceneIO

/// What a region's build leaves on disk besides its levels' splats.
struct RegionResult: Codable, Equatable {
    /// Splats per level.
    var counts: [Int]
    /// Per leaf: box (6 float bit patterns), per level (lower, upper) flattened, level errors.
    var boxes: [[UInt32]]
    var ranges: [[Int]]
    var errors: [[UInt32]?]
    /// The region's tree, preorder: −1 a split, k ≥ 0 leaf k.
    var tree: [Int]
    /// The region's level-0 positions whose index in the whole level 0 is a multiple of the fit
    /// sample's step (x y z bit patterns).
    var fitSample: [UInt32]

    init(_ p: LODPyramid, fitSample: [Vec3]) {
        counts = p.counts
        boxes = p.leaves.map { b in [b.bounds.min.x, b.bounds.min.y, b.bounds.min.z, b.bounds.max.x, b.bounds.max.y, b.bounds.max.z].map(\.bitPattern) }
        ranges = p.leaves.map { $0.ranges.flatMap { [$0.lowerBound, $0.upperBound] } }
        errors = p.leaves.map { $0.levelErrors?.values.map(\.bitPattern) }
        var t: [Int] = []
        func walk(_ n: LODPyramid.Node) {
            switch n {
            case .leaf(let i): t.append(i)
            case .split(let a, let b): t.append(-1); walk(a); walk(b)
            }
        }
        walk(p.tree)
        tree = t
        self.fitSample = fitSample.flatMap { [$0.x.bitPattern, $0.y.bitPattern, $0.z.bitPattern] }
    }

    /// The leaves, their ranges moved by `offsets` (per level: where this region's splats start in
    /// the whole level).
    func leaves(offsets: [Int]) -> [LODPyramid.Leaf] {
        (0..<boxes.count).map { i in
            let f = boxes[i].map(Float.init(bitPattern:))
            var r: [Range<Int>] = []
            for k in stride(from: 0, to: ranges[i].count, by: 2) {
                let shift: Int = offsets[k / 2]
                let lower: Int = ranges[i][k] + shift, upper: Int = ranges[i][k + 1] + shift
                r.append(lower..<upper)
            }
            let table = errors[i].flatMap { LevelErrorTable(values: $0.map(Float.init(bitPattern:)), levels: counts.count) }
            return LODPyramid.Leaf(bounds: Bounds(min: Vec3(f[0], f[1], f[2]), max: Vec3(f[3], f[4], f[5])), ranges: r, levelErrors: table)
        }
    }

    /// The region's tree with its leaf numbers moved by `firstLeaf`.
    func node(firstLeaf: Int) -> LODPyramid.Node {
        var at = 0
        func read() -> LODPyramid.Node {
            let v = tree[at]; at += 1
            if v >= 0 { return .leaf(v + firstLeaf) }
            let a = read()
            return .split(a, read())
        }
        return read()
    }

    var fitPositions: [Vec3] {
        stride(from: 0, to: fitSample.count, by: 3).map {
            Vec3(Float(bitPattern: fitSample[$0]), Float(bitPattern: fitSample[$0 + 1]), Float(bitPattern: fitSample[$0 + 2]))
        }
    }

    static func read(_ path: String) -> RegionResult? {
        guard let d = FileManager.default.contents(atPath: path) else { return nil }
        return try? JSONDecoder().decode(RegionResult.self, from: d)
    }

    func write(_ path: String) throws {
        do { try JSONEncoder().encode(self).write(to: URL(fileURLWithPath: path)) } catch {
            throw LODBuildError.workFile(path: path, reason: error.localizedDescription)
        }
    }
}

/// Where every finished region's levels lie in the whole tree's levels, for reading a chunk's
/// splats back from the regions' `.levels` files.
struct RegionLevels {
    struct Part { var levelsFile: String; var counts: [Int]; var starts: [Int] }
    private(set) var parts: [Part] = []
    /// Splats per level over the regions so far.
    private(set) var totals: [Int]
    let records: SplatRecords

    init(levels: Int, records: SplatRecords) { totals = [Int](repeating: 0, count: levels); self.records = records }

    /// Adds the next region (tree order); returns where its levels start in the whole levels.
    mutating func append(levelsFile: String, counts: [Int]) -> [Int] {
        let starts = totals
        parts.append(Part(levelsFile: levelsFile, counts: counts, starts: starts))
        for l in counts.indices { totals[l] += counts[l] }
        return starts
    }

    /// The splats `span` of level `level`, read from the regions that hold them.
    func read(level: Int, span: Range<Int>) throws -> SplatCloud {
        var cloud = SplatCloud(shDegree: records.shDegree), indices: [UInt32] = []
        cloud.reserveCapacity(span.count)
        for part in parts {
            let own = part.starts[level]..<(part.starts[level] + part.counts[level])
            let lo = max(own.lowerBound, span.lowerBound), hi = min(own.upperBound, span.upperBound)
            guard lo < hi else { continue }
            let before = part.counts[..<level].reduce(0, +)
            try records.forEachBlock(part.levelsFile, from: before + lo - own.lowerBound, count: hi - lo) { p, n in
                records.decode(p, count: n, into: &cloud, indices: &indices)
            }
        }
        return cloud
    }
}
