// SplatRender — PreparedBlockFile: prepared splat blocks kept on disk exactly as they lie in memory,
// and mapped back without decoding or preparing anything.
//
// Contract: `write` stores a list of blocks (nil entries allowed) in one file, written under a
// temporary name and renamed into place, so a reader sees a whole file or none. `map` maps such a
// file read-only and returns blocks equal, byte for byte, to the ones written, backed by the page
// cache (no copy, no zeroed pages) and alive as long as any of them is; or throws a one-line
// `PreparedBlockFile.Problem` naming the file, the byte offset and what was wrong — never trusting
// a count, offset or length it has not checked against the file's size and the blocks expected.
//
// Layout (little-endian): a 64-byte header — magic "SFPREP01", the preparation's fingerprint
// (`fingerprint`: a file made by another preparation is stale), SH degree, block count, file size —
// then one 64-byte entry per block (its count, −1 for none; its bounds; where its data starts),
// then each block's data, 64-byte aligned: `fieldCount·stride` Floats, `paddedCount·restCount·3` half
// floats (at least one), `stride` source indices, each array 64-byte aligned.
//
// A file mapped is never written by this program again (a new one replaces it by rename), but one
// truncated by another program while mapped would fault on read: the files live in splatframe's
// own cache folder.
import Foundation
import RenderCore

/// Prepared blocks on disk (see the file header).
public enum PreparedBlockFile {
    /// Why a file could not be mapped: one line naming the file, the byte offset and the fault.
    public struct Problem: Error, CustomStringConvertible, Equatable {
        public let file: String, offset: Int, reason: String
        public var description: String { "\(file): byte \(offset): \(reason)" }
    }

    static let magic: UInt64 = 0x3130_5045_5250_4653   // "SFPREP01"
    static let headerBytes = 64, entryBytes = 64, alignment = 64

    /// A hash of what preparation makes of a fixed set of splats, and of this layout: it changes
    /// whenever `PreparedSplats` prepares or lays out splats differently, so files written by
    /// another build of the program are seen to be stale (not merely differently versioned).
    public static let fingerprint: UInt64 = {
        var random = SeededRandom(seed: 0x5EED_B10C)
        let n = 19
        var cloud = SplatCloud(shDegree: 3)
        for _ in 0..<n {
            cloud.positions.append(Vec3(random.normal(), random.normal(), random.normal()))
            cloud.scales.append(Vec3(random.uniform(), random.uniform(), random.uniform()) * 0.1 + 0.01)
            cloud.rotations.append(Quaternion(w: random.normal(), x: random.normal(), y: random.normal(), z: random.normal()))
            cloud.opacities.append(random.uniform())
            cloud.dc.append(Vec3(random.normal(), random.normal(), random.normal()))
            for _ in 0..<45 { cloud.shRest.append(random.normal() * 0.3) }
        }
        let p = PreparedSplats(cloud)
        var h = StableHash.start
        func mix(_ raw: UnsafeRawBufferPointer) { h = StableHash.mixing(raw, into: h) }
        for value in [PreparedSplats.fieldCount, p.fieldStride, p.restCount, headerBytes, entryBytes, alignment] {
            withUnsafeBytes(of: UInt64(value)) { mix($0) }
        }
        mix(UnsafeRawBufferPointer(start: p.fields, count: PreparedSplats.fieldCount * p.fieldStride * 4))
        mix(UnsafeRawBufferPointer(start: p.rest, count: restBytes(count: n, restCount: p.restCount)))
        mix(UnsafeRawBufferPointer(start: p.sourceIndex, count: p.fieldStride * 4))
        return h
    }()

    /// Where the arrays of a block of `count` splats lie inside its data, and its data's length
    /// (bytes; each array aligned): fields, SH rest, source indices.
    static func layout(count: Int, restCount: Int) -> (stride: Int, restAt: Int, sourceAt: Int, bytes: Int) {
        let stride = max(8, (count + 7) / 8 * 8)
        let restAt = aligned(PreparedSplats.fieldCount * stride * 4)
        let sourceAt = restAt + aligned(restBytes(count: count, restCount: restCount))
        return (stride, restAt, sourceAt, sourceAt + aligned(stride * 4))
    }

    /// Bytes of a block's SH rest: `paddedCount·restCount·3` half floats, at least one.
    static func restBytes(count: Int, restCount: Int) -> Int { max(1, (count + 7) / 8 * 8 * restCount * 3) * 2 }

    @inline(__always) static func aligned(_ n: Int) -> Int { (n + alignment - 1) / alignment * alignment }

    /// Bytes the file for blocks of `counts` splats (nil: none) at SH degree `shDegree` takes.
    public static func fileBytes(counts: [Int?], shDegree: Int) -> Int {
        let restCount = SplatCloud.restCount(degree: min(3, max(0, shDegree)))
        return counts.reduce(aligned(headerBytes + entryBytes * counts.count)) { $0 + ($1.map { layout(count: $0, restCount: restCount).bytes } ?? 0) }
    }

    /// Writes `blocks` (all of SH degree `shDegree`; nil entries kept as none) to `path`, through a
    /// temporary file in the same folder renamed into place.
    /// - Throws: `Problem` (offset 0) when the folder cannot be written.
    public static func write(_ blocks: [PreparedSplats?], shDegree: Int, to path: String) throws {
        let restCount = SplatCloud.restCount(degree: min(3, max(0, shDegree)))
        var header = [UInt8](repeating: 0, count: headerBytes + entryBytes * blocks.count)
        var at = aligned(header.count)
        func put<T>(_ value: T, _ offset: Int) {
            withUnsafeBytes(of: value) { header.replaceSubrange(offset..<offset + $0.count, with: $0) }
        }
        put(magic.littleEndian, 0)
        put(fingerprint.littleEndian, 8)
        put(UInt32(min(3, max(0, shDegree))).littleEndian, 16)
        put(UInt32(blocks.count).littleEndian, 20)
        for (k, block) in blocks.enumerated() {
            let e = headerBytes + k * entryBytes
            guard let block else { put(Int64(-1).littleEndian, e); continue }
            precondition(block.restCount == restCount, "blocks of one file share the SH degree")
            precondition(block.fieldStride == max(8, block.paddedCount), "a prepared block, not an assembly")
            put(Int64(block.count).littleEndian, e)
            put(UInt64(at).littleEndian, e + 8)
            for (i, v) in [block.bounds.min.x, block.bounds.min.y, block.bounds.min.z,
                           block.bounds.max.x, block.bounds.max.y, block.bounds.max.z].enumerated() {
                put(v.bitPattern.littleEndian, e + 16 + 4 * i)
            }
            at += layout(count: block.count, restCount: restCount).bytes
        }
        put(UInt64(at).littleEndian, 24)

        let folder = (path as NSString).deletingLastPathComponent
        let temporary = folder + "/.tmp-\(getpid())-\((path as NSString).lastPathComponent)"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw Problem(file: path, offset: 0, reason: "cannot write: \(String(cString: strerror(errno)))") }
        var ok = true
        func send(_ base: UnsafeRawPointer, _ count: Int) {
            var done = 0
            while ok && done < count {
                let n = Foundation.write(fd, base + done, count - done)
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { ok = false } else { done += n }
            }
        }
        let zeros = [UInt8](repeating: 0, count: alignment)
        func pad(_ written: Int) { if written % alignment != 0 { zeros.withUnsafeBytes { send($0.baseAddress!, alignment - written % alignment) } } }
        header.withUnsafeBytes { send($0.baseAddress!, $0.count) }
        pad(header.count)
        for block in blocks {
            guard let block else { continue }
            let fieldBytes = PreparedSplats.fieldCount * block.fieldStride * 4, rest = restBytes(count: block.count, restCount: restCount)
            send(block.fields, fieldBytes); pad(fieldBytes)
            send(block.rest, rest); pad(rest)
            send(block.sourceIndex, block.fieldStride * 4); pad(block.fieldStride * 4)
        }
        let reason = ok ? nil : String(cString: strerror(errno))
        close(fd)
        guard ok, rename(temporary, path) == 0 else {
            let why = reason ?? String(cString: strerror(errno))
            unlink(temporary)
            throw Problem(file: path, offset: 0, reason: "cannot write: \(why)")
        }
    }

    /// Removes the temporary files that writers killed mid-write left in `folder` (`.tmp-PID-…`
    /// of a process that is gone); a live writer's are kept.
    public static func removeAbandonedTemporaries(in folder: String) {
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] where name.hasPrefix(".tmp-") {
            guard let pid = Int32(name.dropFirst(5).prefix { $0 != "-" }), LRUFolder.processIsGone(pid) else { continue }
            unlink(folder + "/" + name)
        }
    }

    /// Maps `path` and returns its blocks, checked against what the caller expects: SH degree
    /// `shDegree` and, per block, `counts[k]` splats (nil: the block must be absent). The blocks
    /// share one read-only mapping, unmapped when the last of them goes; their pages are faulted
    /// in here (`MAP_POPULATE`), so a frame that copies them does not wait for the disk.
    /// - Throws: `Problem` for a missing, short, foreign, stale or inconsistent file.
    public static func map(_ path: String, shDegree: Int, counts: [Int?]) throws -> [PreparedSplats?] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw Problem(file: path, offset: 0, reason: String(cString: strerror(errno))) }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else { throw Problem(file: path, offset: 0, reason: "not a regular file") }
        let size = Int(st.st_size)
        let tableEnd = headerBytes + entryBytes * counts.count
        guard size >= tableEnd else { throw Problem(file: path, offset: size, reason: "ends before its block table (\(tableEnd) bytes)") }
        guard let base = mmap(nil, size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0), base != MAP_FAILED else {
            throw Problem(file: path, offset: 0, reason: "cannot map: \(String(cString: strerror(errno)))")
        }
        let mapping = Mapping(base: base, size: size)
        func read<T: FixedWidthInteger>(_ offset: Int, _: T.Type) -> T { T(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: T.self)) }
        guard read(0, UInt64.self) == magic else { throw Problem(file: path, offset: 0, reason: "not a prepared-block file") }
        guard read(8, UInt64.self) == fingerprint else { throw Problem(file: path, offset: 8, reason: "made by another preparation (stale)") }
        let degree = min(3, max(0, shDegree)), restCount = SplatCloud.restCount(degree: degree)
        guard Int(read(16, UInt32.self)) == degree else {
            throw Problem(file: path, offset: 16, reason: "SH degree \(read(16, UInt32.self)), expected \(degree)")
        }
        guard Int(read(20, UInt32.self)) == counts.count else {
            throw Problem(file: path, offset: 20, reason: "\(read(20, UInt32.self)) blocks, expected \(counts.count)")
        }
        guard read(24, UInt64.self) == UInt64(size) else { throw Problem(file: path, offset: 24, reason: "records \(read(24, UInt64.self)) bytes; the file has \(size)") }
        var blocks: [PreparedSplats?] = []
        blocks.reserveCapacity(counts.count)
        var next = aligned(tableEnd)
        for (k, expected) in counts.enumerated() {
            let e = headerBytes + k * entryBytes
            let count = Int(read(e, Int64.self))
            guard let expected else {
                guard count == -1 else { throw Problem(file: path, offset: e, reason: "block \(k) holds \(count) splats, expected none") }
                blocks.append(nil)
                continue
            }
            guard count == expected else { throw Problem(file: path, offset: e, reason: "block \(k) holds \(count) splats, expected \(expected)") }
            let l = layout(count: count, restCount: restCount)
            let start = read(e + 8, UInt64.self)
            guard start == UInt64(next), next + l.bytes <= size else {
                throw Problem(file: path, offset: e + 8, reason: "block \(k)'s data (\(l.bytes) bytes at \(start)) is not where the file has room for it")
            }
            func float(_ i: Int) -> Float { Float(bitPattern: read(e + 16 + 4 * i, UInt32.self)) }
            let bounds = Bounds(min: Vec3(float(0), float(1), float(2)), max: Vec3(float(3), float(4), float(5)))
            let data = UnsafeMutableRawPointer(mutating: base) + next
            blocks.append(PreparedSplats(storageOf: mapping,
                                         fields: data.assumingMemoryBound(to: Float.self),
                                         rest: (data + l.restAt).assumingMemoryBound(to: Float16.self),
                                         sourceIndex: (data + l.sourceAt).assumingMemoryBound(to: UInt32.self),
                                         count: count, shDegree: degree, bounds: bounds))
            next += l.bytes
        }
        guard next == size else { throw Problem(file: path, offset: next, reason: "\(size - next) bytes after the last block") }
        return blocks
    }

    /// One file's read-only mapping, unmapped with the last block over it.
    final class Mapping {
        let base: UnsafeRawPointer, size: Int
        init(base: UnsafeMutableRawPointer, size: Int) { self.base = UnsafeRawPointer(base); self.size = size }
        deinit { munmap(UnsafeMutableRawPointer(mutating: base), size) }
    }
}
