// SplatLOD — DiskPartition: the out-of-core build's leaves-to-be, split on disk. A record file is
// split exactly as `LODBuilder` splits a range in memory — at the median of its centres' box's
// longest axis, ties by index in the capture — until a part holds at most `regionSplats`; each part
// (a region) is then built in memory by `LODBuilder` and yields the leaves the whole build would.
//
// Files, in the work folder, named by their place in the tree ("r" the capture, "r0" its lower
// half, "r01"…): `NAME.rec` (records, capture order), `NAME.info` (count and centres' box, written
// once `NAME.rec` is whole), `NAME.split` (the halves are whole; `NAME.rec` is then removed). A
// restarted partition trusts these markers and redoes only a split that has none.
//
// The median is found by selection over the records on disk (`median`): a histogram of the top
// 16 bits of each record's sort key — its coordinate's order-preserving bits, then its index — the
// bucket holding the median gathered and sorted when it is small, else the next 16 bits counted
// within it. Memory: a 65,536-entry histogram and at most `gatherLimit` keys, whatever the size.
import Foundation
import RenderCore

/// The split tree over the regions: leaves name region files.
indirect enum RegionNode: Equatable {
    case region(String)
    case split(RegionNode, RegionNode)

    /// Region names, lower halves first (the order the in-memory build numbers leaves in).
    var regions: [String] {
        switch self {
        case .region(let n): return [n]
        case .split(let a, let b): return a.regions + b.regions
        }
    }
}

/// A record file's count and centres' box (`NAME.info`).
struct RecordFileInfo: Codable, Equatable {
    var count: Int
    /// The records' SH degree.
    var shDegree: Int
    /// min x y z, max x y z as float bit patterns (exact).
    var box: [UInt32]

    init(count: Int, shDegree: Int, bounds: Bounds) {
        self.count = count; self.shDegree = shDegree
        box = [bounds.min.x, bounds.min.y, bounds.min.z, bounds.max.x, bounds.max.y, bounds.max.z].map(\.bitPattern)
    }

    var bounds: Bounds {
        let f = box.map(Float.init(bitPattern:))
        return Bounds(min: Vec3(f[0], f[1], f[2]), max: Vec3(f[3], f[4], f[5]))
    }

    static func read(_ path: String) -> RecordFileInfo? {
        guard let d = FileManager.default.contents(atPath: path) else { return nil }
        return try? JSONDecoder().decode(RecordFileInfo.self, from: d)
    }

    func write(_ path: String) throws {
        do { try JSONEncoder().encode(self).write(to: URL(fileURLWithPath: path)) } catch {
            throw LODBuildError.workFile(path: path, reason: error.localizedDescription)
        }
    }
}

/// Splits record files on disk (see the file header).
struct DiskPartition {
    let folder: String
    let records: SplatRecords
    /// Most splats a region holds (≥ 2 × the leaf size + 1, so a region is always split further
    /// in memory, as the whole build splits it).
    let regionSplats: Int
    /// Most sort keys gathered into memory at once (8 bytes each).
    var gatherLimit = 1 << 22
    let cancelled: (@Sendable () -> Bool)?
    /// Called with the records just split (each pass over a file, block by block: a capture's
    /// records pass once per tree level above the regions).
    var progress: ((Int) -> Void)?

    func path(_ name: String, _ ext: String) -> String { folder + "/" + name + "." + ext }

    /// The tree below `name` (whose `.info` exists), splitting what is not split yet.
    func partition(_ name: String = "r") throws -> RegionNode {
        if FileManager.default.fileExists(atPath: path(name, "split")) {
            return .split(try partition(name + "0"), try partition(name + "1"))
        }
        guard let info = RecordFileInfo.read(path(name, "info")) else {
            throw LODBuildError.workFile(path: path(name, "info"), reason: "missing; the build's folder was changed while building")
        }
        if info.count <= regionSplats { return .region(name) }
        if cancelled?() == true { throw LODBuildError.cancelled }
        try split(name, info)
        return .split(try partition(name + "0"), try partition(name + "1"))
    }

    /// The split axis of a box, as `LODBuilder` picks it: the longest, x before y before z on ties.
    static func axis(_ b: Bounds) -> Int {
        let e = b.max - b.min
        return e.x >= e.y && e.x >= e.z ? 0 : e.y >= e.z ? 1 : 2
    }

    /// The sort key of the record at `p` along `axis`: ordered like `(coordinate, index)` tuples
    /// (−0 and +0 equal, as `<` has them).
    @inline(__always) static func key(_ p: UnsafeRawPointer, axis: Int) -> UInt64 {
        var f = SplatRecords.centre(p, axis: axis)
        if f == 0 { f = 0 }
        let b = f.bitPattern
        let ordered = b & 0x8000_0000 != 0 ? ~b : b | 0x8000_0000
        return UInt64(ordered) << 32 | UInt64(SplatRecords.index(p))
    }

    /// The key of rank `rank` (0-based, ascending) among the records of `file` along `axis`.
    func median(_ file: String, axis: Int, rank: Int) throws -> UInt64 {
        var prefix: UInt64 = 0, k = rank
        for digit in 0..<4 {
            let shift = UInt64(48 - 16 * digit)
            let known = digit == 0 ? 0 : UInt64.max << (shift + 16)
            var histogram = [Int](repeating: 0, count: 1 << 16)
            try records.forEachBlock(file) { p, n in
                for i in 0..<n {
                    let key = Self.key(p + i * records.bytes, axis: axis)
                    if key & known == prefix { histogram[Int((key >> shift) & 0xFFFF)] += 1 }
                }
            }
            var bucket = 0
            while k >= histogram[bucket] { k -= histogram[bucket]; bucket += 1 }
            prefix |= UInt64(bucket) << shift
            if digit == 3 { return prefix }
            if histogram[bucket] <= gatherLimit {
                let mask = UInt64.max << shift
                var keys: [UInt64] = []
                keys.reserveCapacity(histogram[bucket])
                try records.forEachBlock(file) { p, n in
                    for i in 0..<n {
                        let key = Self.key(p + i * records.bytes, axis: axis)
                        if key & mask == prefix { keys.append(key) }
                    }
                }
                keys.sort()
                return keys[k]
            }
        }
        return prefix
    }

    /// Splits `name` into `name0` (the lower `count / 2` keys) and `name1`, then marks it split
    /// and removes its records.
    func split(_ name: String, _ info: RecordFileInfo) throws {
        let axis = Self.axis(info.bounds)
        let file = path(name, "rec")
        let pivot = try median(file, axis: axis, rank: info.count / 2)
        let lower = try RecordFileWriter(path(name + "0", "rec")), upper = try RecordFileWriter(path(name + "1", "rec"))
        var boxes = (Bounds.empty, Bounds.empty), counts = (0, 0)
        try records.forEachBlock(file) { p, n in
            if cancelled?() == true { throw LODBuildError.cancelled }
            for i in 0..<n {
                let r = p + i * records.bytes
                let bytes = UnsafeRawBufferPointer(start: r, count: records.bytes)
                if Self.key(r, axis: axis) < pivot {
                    try lower.append(bytes); boxes.0 = boxes.0.including(SplatRecords.centre(r)); counts.0 += 1
                } else {
                    try upper.append(bytes); boxes.1 = boxes.1.including(SplatRecords.centre(r)); counts.1 += 1
                }
            }
            progress?(n)
        }
        try lower.finish(); try upper.finish()
        try RecordFileInfo(count: counts.0, shDegree: records.shDegree, bounds: boxes.0).write(path(name + "0", "info"))
        try RecordFileInfo(count: counts.1, shDegree: records.shDegree, bounds: boxes.1).write(path(name + "1", "info"))
        guard FileManager.default.createFile(atPath: path(name, "split"), contents: Data()) else {
            throw LODBuildError.workFile(path: path(name, "split"), reason: "cannot be created")
        }
        try? FileManager.default.removeItem(atPath: file)
    }
}
