// SceneIO — SpooledColumns: a capture's attribute columns spooled to an unlinked temporary file,
// appended once in column order and read back a slice at a time (`pread`).
// Used by the bounded `.spz` and SOG streams: their files are attribute-major (all positions,
// then all rotations…) and compressed, so a block of splats needs a slice of every column; the
// decompressed columns go to disk once and each block reads its slices. The file is unlinked as
// soon as it is created: it has no name while the stream uses it, and its space is freed when the
// stream (and with it the descriptor) goes, even if the process is killed.
import Foundation

/// Named byte columns of `count` splats each (column c holds `bytesPerSplat` bytes per splat,
/// splat after splat), stored back to back in a file: column c starts where column c − 1 ends.
///
/// Filled by `append` in column order (the caller's bytes may split anywhere), then read with
/// `read(_:splats:into:)` at column offset + splat index × bytes per splat. Either a spool — a
/// temporary file in `FileManager.default.temporaryDirectory` (`$TMPDIR`), unlinked right after
/// it is created — or the columns as they already lie in a file (`init(reading:at:)`).
/// The descriptor is closed in `deinit`.
/// - Complexity: `append` and `read` are O(bytes) with one `pwrite`/`pread` per call (more if the
///   system returns short counts); memory is only what the caller passes.
final class SpooledColumns {
    /// One column: where it starts in the file and its bytes per splat.
    struct Column: Sendable {
        let name: String
        let offset: Int
        let bytesPerSplat: Int
    }

    /// Splats in every column.
    let count: Int
    /// The columns in file order.
    let columns: [Column]
    /// Bytes of all columns.
    let totalBytes: Int
    /// The capture the columns come from (named in errors).
    let file: String
    /// The spool's path while it was being created (it is unlinked at once); nil for `init(reading:at:)`.
    let spoolPath: String?
    /// Bytes appended so far.
    private(set) var written = 0
    private let fd: Int32

    /// Names the temporary files start with.
    static let prefix = "splatframe-spool-"

    /// A new, empty spool for `count` splats of the given columns.
    /// - Throws: `SceneIOError.tooLarge` when the columns' size overflows; `.unwritable` when the
    ///   temporary file cannot be created.
    init(file: String, count: Int, columns: [(name: String, bytesPerSplat: Int)]) throws {
        (self.columns, totalBytes) = try Self.layout(file: file, count: count, columns: columns, base: 0)
        self.file = file; self.count = count
        let dir = FileManager.default.temporaryDirectory.path
        var template = Array(((dir as NSString).appendingPathComponent(Self.prefix + "XXXXXX")).utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else {
            throw SceneIOError.unwritable(file: dir, reason: "cannot create a temporary spool for \(file): \(String(cString: strerror(errno)))")
        }
        let path = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        unlink(path)                                     // nameless from now on: goes with the descriptor
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        self.fd = fd; spoolPath = path
    }

    /// The columns as they already lie in the open file `fd` from byte `base` on (complete: nothing
    /// is appended). Takes ownership of `fd`.
    init(reading fd: Int32, at base: Int, file: String, count: Int, columns: [(name: String, bytesPerSplat: Int)]) throws {
        do { (self.columns, totalBytes) = try Self.layout(file: file, count: count, columns: columns, base: base) } catch {
            close(fd); throw error
        }
        self.file = file; self.count = count; self.fd = fd; spoolPath = nil
        written = totalBytes
    }

    deinit { close(fd) }

    /// Column offsets from `base`, checked for overflow; the total excludes `base`.
    private static func layout(file: String, count: Int, columns: [(name: String, bytesPerSplat: Int)], base: Int) throws -> ([Column], Int) {
        var out: [Column] = []
        var o = base
        for c in columns {
            guard let size = SizeMath.mul(count, c.bytesPerSplat), let end = SizeMath.add(o, size) else {
                throw SceneIOError.tooLarge(file: file, offset: 0, expected: "columns that fit in a file", found: "\(count) splats of \(c.bytesPerSplat) bytes of \(c.name)")
            }
            out.append(Column(name: c.name, offset: o, bytesPerSplat: c.bytesPerSplat))
            o = end
        }
        return (out, o - base)
    }

    /// Whether every column was filled.
    var isComplete: Bool { written == totalBytes }

    /// Appends bytes after those written so far (never past the last column's end).
    /// - Throws: `SceneIOError.tooLarge` beyond the columns; `.unwritable` when the disk refuses.
    func append(_ bytes: UnsafeRawBufferPointer) throws {
        guard bytes.count > 0, let base = bytes.baseAddress else { return }
        guard bytes.count <= totalBytes - written else {
            throw SceneIOError.tooLarge(file: file, offset: written, expected: "\(totalBytes) bytes of columns", found: "more")
        }
        var done = 0
        while done < bytes.count {
            let r = pwrite(fd, base + done, bytes.count - done, off_t(written + done))
            if r < 0 && errno == EINTR { continue }
            guard r > 0 else {
                let reason = r < 0 ? String(cString: strerror(errno)) : "nothing written"
                throw SceneIOError.unwritable(file: spoolPath ?? file, reason: "the temporary spool of \(file): \(reason)")
            }
            done += r
        }
        written += done
    }

    /// Bytes column `c` holds for `n` splats.
    func bytes(_ c: Int, splats n: Int) -> Int { n * columns[c].bytesPerSplat }

    /// Reads column `c`'s bytes of `splats` into `buffer`, which holds exactly that many
    /// (`bytes(c, splats: splats.count)`).
    /// - Throws: `SceneIOError.truncated` when the file holds fewer bytes (a spool never does;
    ///   a file read in place may have shrunk).
    func read(_ c: Int, splats: Range<Int>, into buffer: UnsafeMutableRawBufferPointer) throws {
        let col = columns[c]
        precondition(splats.lowerBound >= 0 && splats.upperBound <= count && buffer.count == splats.count * col.bytesPerSplat,
                     "a read outside the columns")
        let n = buffer.count, at = col.offset + splats.lowerBound * col.bytesPerSplat
        guard n > 0 else { return }
        let got = Self.pread(fd, buffer.baseAddress!, n, at: at)
        guard got == n else {
            throw SceneIOError.truncated(file: spoolPath == nil ? file : "\(file) (temporary spool)", offset: at + max(0, got),
                                         expected: "\(n) bytes of \(col.name) for splats \(splats.lowerBound)..<\(splats.upperBound)")
        }
    }

    /// Reads every column's bytes of `splats` into `buffer` (resized as needed), one after the
    /// other, and runs `body` over the slices (column order).
    func withSlices<T>(splats: Range<Int>, buffer: inout [UInt8], _ body: ([UnsafeRawBufferPointer]) throws -> T) throws -> T {
        let sizes = columns.indices.map { bytes($0, splats: splats.count) }
        let total = sizes.reduce(0, +)
        if buffer.count < total { buffer = [UInt8](repeating: 0, count: total) }
        return try buffer.withUnsafeMutableBytes { raw in
            var slices: [UnsafeRawBufferPointer] = []
            var o = 0
            for (c, size) in sizes.enumerated() {
                let slice = UnsafeMutableRawBufferPointer(rebasing: raw[o..<(o + size)])
                try read(c, splats: splats, into: slice)
                slices.append(UnsafeRawBufferPointer(slice))
                o += size
            }
            return try body(slices)
        }
    }

    /// Reads up to `n` bytes at `offset`, retrying short reads and EINTR; returns the bytes read
    /// (fewer at the end of the file), or −1 on an error (`errno` says which).
    static func pread(_ fd: Int32, _ into: UnsafeMutableRawPointer, _ n: Int, at offset: Int) -> Int {
        var done = 0
        while done < n {
            let r = Foundation.pread(fd, into + done, n - done, off_t(offset + done))
            if r < 0 && errno == EINTR { continue }
            if r < 0 { return -1 }
            if r == 0 { break }
            done += r
        }
        return done
    }
}
