// SplatLOD — SplatRecords: splats as fixed-size records in temporary files, the out-of-core
// build's working form. A record is the splat's index in the capture (UInt32) and its
// `SplatCloud` values as stored (position, scale, rotation w x y z, opacity, dc, rest), float32,
// host byte order: a cloud written and read back is bit-identical. Files are read and written in
// blocks of bounded size (`blockBytes`), never mapped whole.
import Foundation
import RenderCore

/// The record layout for one SH degree, and block-wise file access.
struct SplatRecords: Sendable {
    let shDegree: Int
    /// Floats after the index: 14 + 3 × rest coefficients per channel.
    let floats: Int
    /// Bytes per record.
    let bytes: Int
    /// Bytes read or written at a time.
    static let blockBytes = 8 << 20

    init(shDegree: Int) {
        self.shDegree = shDegree
        floats = 14 + 3 * SplatCloud.restCount(degree: shDegree)
        bytes = 4 + 4 * floats
    }

    /// Records a block holds.
    var blockRecords: Int { max(1, Self.blockBytes / bytes) }

    /// Appends the splats `range` of `cloud` as records to `out`, the i-th with index `index(i)`.
    func encode(_ cloud: SplatCloud, range: Range<Int>, into out: inout [UInt8], index: (Int) -> UInt32) {
        let start = out.count, rest = floats - 14
        out.append(contentsOf: repeatElement(0, count: range.count * bytes))
        out.withUnsafeMutableBytes { raw in
            for i in range {
                let p = raw.baseAddress! + start + (i - range.lowerBound) * bytes
                p.storeBytes(of: index(i), as: UInt32.self)
                let f = (p + 4).assumingMemoryBound(to: Float.self)
                let pos = cloud.positions[i], s = cloud.scales[i], q = cloud.rotations[i], d = cloud.dc[i]
                f[0] = pos.x; f[1] = pos.y; f[2] = pos.z; f[3] = s.x; f[4] = s.y; f[5] = s.z
                f[6] = q.w; f[7] = q.x; f[8] = q.y; f[9] = q.z; f[10] = cloud.opacities[i]
                f[11] = d.x; f[12] = d.y; f[13] = d.z
                for m in 0..<rest { f[14 + m] = cloud.shRest[i * rest + m] }
            }
        }
    }

    /// Appends the `count` records at `raw` to `cloud` (and their indices to `indices`).
    func decode(_ raw: UnsafeRawPointer, count: Int, into cloud: inout SplatCloud, indices: inout [UInt32]) {
        let rest = floats - 14
        var coefficients = [Float](repeating: 0, count: rest)
        for i in 0..<count {
            let p = raw + i * bytes
            indices.append(p.loadUnaligned(as: UInt32.self))
            let f = UnsafeRawPointer(p + 4)
            func v(_ k: Int) -> Float { f.loadUnaligned(fromByteOffset: 4 * k, as: Float.self) }
            for m in 0..<rest { coefficients[m] = v(14 + m) }
            cloud.append(position: Vec3(v(0), v(1), v(2)), scale: Vec3(v(3), v(4), v(5)),
                         rotation: Quaternion(w: v(6), x: v(7), y: v(8), z: v(9)), opacity: v(10),
                         dc: Vec3(v(11), v(12), v(13)), rest: coefficients)
        }
    }

    /// The index of the record at `p`.
    @inline(__always) static func index(_ p: UnsafeRawPointer) -> UInt32 { p.loadUnaligned(as: UInt32.self) }
    /// Coordinate `axis` (0 x, 1 y, 2 z) of the centre of the record at `p`.
    @inline(__always) static func centre(_ p: UnsafeRawPointer, axis: Int) -> Float {
        p.loadUnaligned(fromByteOffset: 4 + 4 * axis, as: Float.self)
    }
    @inline(__always) static func centre(_ p: UnsafeRawPointer) -> Vec3 {
        Vec3(centre(p, axis: 0), centre(p, axis: 1), centre(p, axis: 2))
    }

    /// Calls `body` with each block of `path`'s records from record `from` on (a pointer to the
    /// first and how many), in order.
    func forEachBlock(_ path: String, from: Int = 0, count: Int? = nil, _ body: (UnsafeRawPointer, Int) throws -> Void) throws {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw LODBuildError.workFile(path: path, reason: String(cString: strerror(errno))) }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw LODBuildError.workFile(path: path, reason: String(cString: strerror(errno))) }
        let total = Int(st.st_size) / bytes
        var next = from
        let end = count.map { min(total, from + $0) } ?? total
        var buffer = [UInt8](repeating: 0, count: min(max(0, end - from), blockRecords) * bytes)
        while next < end {
            let n = min(blockRecords, end - next)
            try buffer.withUnsafeMutableBytes { raw in
                try Self.readFully(fd, raw.baseAddress!, n * bytes, at: next * bytes, path: path)
                try body(UnsafeRawPointer(raw.baseAddress!), n)
            }
            next += n
        }
    }

    /// Records in `path` (its size over the record size).
    func count(_ path: String) -> Int {
        var st = stat()
        return stat(path, &st) == 0 ? Int(st.st_size) / bytes : 0
    }

    /// Reads the `count` records from record `from` of `path` into a cloud (and their indices).
    func read(_ path: String, from: Int = 0, count: Int? = nil) throws -> (SplatCloud, [UInt32]) {
        var cloud = SplatCloud(shDegree: shDegree), indices: [UInt32] = []
        let n = count ?? (self.count(path) - from)
        cloud.reserveCapacity(n); indices.reserveCapacity(n)
        try forEachBlock(path, from: from, count: n) { p, k in decode(p, count: k, into: &cloud, indices: &indices) }
        return (cloud, indices)
    }

    static func readFully(_ fd: Int32, _ p: UnsafeMutableRawPointer, _ n: Int, at offset: Int, path: String) throws {
        var done = 0
        while done < n {
            let r = pread(fd, p + done, n - done, off_t(offset + done))
            if r < 0 && errno == EINTR { continue }
            guard r > 0 else { throw LODBuildError.workFile(path: path, reason: r < 0 ? String(cString: strerror(errno)) : "shorter than expected") }
            done += r
        }
    }
}

/// Appends bytes to a file through a buffer of `SplatRecords.blockBytes`.
final class RecordFileWriter {
    let path: String
    private let fd: Int32
    private var buffer: [UInt8] = []

    /// Creates (truncates) `path`.
    init(_ path: String) throws {
        self.path = path
        fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw LODBuildError.workFile(path: path, reason: String(cString: strerror(errno))) }
        buffer.reserveCapacity(SplatRecords.blockBytes)
    }

    deinit { close(fd) }

    func append(_ bytes: UnsafeRawBufferPointer) throws {
        buffer.append(contentsOf: bytes)
        if buffer.count >= SplatRecords.blockBytes { try flush() }
    }

    /// Appends `cloud` as records (`index(i)` the i-th's index in the capture), a block at a time.
    func append(_ cloud: SplatCloud, records: SplatRecords, index: (Int) -> UInt32) throws {
        var i = 0
        while i < cloud.count {
            let end = min(cloud.count, i + records.blockRecords)
            records.encode(cloud, range: i..<end, into: &buffer, index: index)
            if buffer.count >= SplatRecords.blockBytes { try flush() }
            i = end
        }
    }

    func flush() throws {
        try buffer.withUnsafeBytes { raw in
            var done = 0
            while done < raw.count {
                let r = write(fd, raw.baseAddress! + done, raw.count - done)
                if r < 0 && errno == EINTR { continue }
                guard r > 0 else { throw LODBuildError.workFile(path: path, reason: String(cString: strerror(errno))) }
                done += r
            }
        }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Flushes what is buffered (the bytes are then the kernel's: a killed process loses none).
    func finish() throws { try flush() }
}
