// SceneIO — SPZSplatStream: an .spz read a block of splats at a time in bounded memory.
// An .spz is attribute-major (all positions, then alphas, colours, scales, rotations, SH) and
// compressed as a whole (v2/v3 gzip) or per attribute (v4 zstd), so a block needs a slice of every
// attribute: opening inflates the payload piece by piece (`DecompressStream`) into a spool file
// (`SpooledColumns`, unlinked, on disk about the size of the raw payload: 65 bytes a splat at SH
// degree 3); `next` reads each attribute's slice for the block and decodes it with the whole-file
// reader's own code (`SPZReader.decode(_:splats:…)`). An uncompressed NGSP v2/v3 file is read in
// place. Checks, limits and errors are `SPZReader`'s (header, expansion caps, truncation,
// extension records, the stored frame and its SH signs).
// Memory: two 1 MiB buffers while opening (and zstd's window for v4), then one block.
import Foundation
import RenderCore

/// An `.spz` handed out in blocks (see the file header).
public final class SPZSplatStream: SplatStream {
    /// The attribute blocks, as columns (file order).
    let columns: SpooledColumns
    private let header: SPZReader.Header
    private let map: SPZAxisMap
    private let shSigns: [Float]
    private var row = 0
    private var buffer: [UInt8] = []
    public var count: Int { header.count }
    public var shDegree: Int { header.degree }
    public let warnings: [String]
    public var isBounded: Bool { true }

    /// Opens the `.spz` at `path` and spools its inflated attribute blocks.
    /// - Parameter progress: (file bytes done, file bytes) while the payload is inflated.
    /// - Throws: `SceneIOError` as `SceneFile.load` does for the same file (one line, naming the
    ///   file and the byte offset); `.unwritable` when the spool cannot be written.
    public static func open(_ path: String, progress: SceneLoadProgress? = nil) throws -> SPZSplatStream {
        // The columns hold their own descriptor; this one closes as `input` goes.
        guard let input = try ReadOnlyFile.open(path, headBytes: 2) else {
            throw SceneIOError.unreadable(file: path, reason: "not a regular file")
        }
        defer { withExtendedLifetime(input) {} }
        let fd = input.fd, size = input.size
        guard size >= 2 else { throw SceneIOError.truncated(file: path, offset: 0, expected: "an .spz header") }
        let magic = input.head
        if magic == [0x1f, 0x8b] { return try openGzip(fd, size: size, file: path, progress: progress) }
        let stream = try withMapped(fd, size: size, file: path) { view -> SPZSplatStream in
            let header = try SPZReader.parseHeader(view, gzip: false)
            var ext = SPZExtensions()
            let columns: SpooledColumns
            let spec = zip(SPZReader.blockNames, header.bytesPerSplat).map { (name: $0, bytesPerSplat: $1) }
            if header.version >= 4 {
                let streams = try SPZReader.v4Streams(view, header, fileBytes: size)
                if header.hasExtensions {
                    ext = try SPZExtensions.parse(view, from: 32, to: Int(view.u32(16)), inflated: false)
                }
                columns = try SpooledColumns(file: path, count: header.count, columns: spec)
                for s in streams {
                    try DecompressStream.zstd(fd, offset: s.offset, compressed: s.compressed, size: s.size, file: path) { try columns.append($0) }
                    progress?(s.offset + s.compressed, size)
                }
            } else {
                // An uncompressed NGSP v2/v3 stream: the blocks are read where they lie.
                let total = try SPZReader.payloadSize(header, file: path)
                try view.need(16, total, "\(total) bytes of splat data for \(header.count) points")
                if header.hasExtensions { ext = try SPZExtensions.parse(view, from: 16 + total, to: view.count, inflated: false) }
                let own = dup(fd)
                guard own >= 0 else { throw SceneIOError.unreadable(file: path, reason: String(cString: strerror(errno))) }
                columns = try SpooledColumns(reading: own, at: 16, file: path, count: header.count, columns: spec)
            }
            return try SPZSplatStream(columns: columns, header: header, extensions: ext)
        }
        progress?(size, size)
        return stream
    }

    /// v2/v3: the file is one gzip stream — the 16-byte header, the blocks, then (flag 0x2) the
    /// extension records, which are kept in memory (at most `SPZReader.maxTrailingExtensionBytes`).
    private static func openGzip(_ fd: Int32, size: Int, file: String, progress: SceneLoadProgress?) throws -> SPZSplatStream {
        var head: [UInt8] = []
        var header: SPZReader.Header?
        var columns: SpooledColumns?
        var total = 0, spooled = 0
        var trailing: [UInt8] = []
        let maxTrailing = SPZReader.maxTrailingExtensionBytes
        try DecompressStream.gunzip(fd, size: size, file: file, progress: { progress?($0, size) }) { piece in
            var rest = piece
            if header == nil {
                let take = min(16 - head.count, rest.count)
                head += rest.prefix(take)
                rest = UnsafeRawBufferPointer(rebasing: rest[take...])
                guard head.count == 16 else { return true }
                let h = try head.withUnsafeBytes { try SPZReader.parseHeader(ByteView(bytes: $0, file: file), gzip: true) }
                total = try SPZReader.gzipPayloadSize(h, fileBytes: size, file: file)
                columns = try SpooledColumns(file: file, count: h.count,
                                             columns: zip(SPZReader.blockNames, h.bytesPerSplat).map { (name: $0, bytesPerSplat: $1) })
                header = h
            }
            guard let h = header, let columns else { return true }
            let take = min(total - spooled, rest.count)
            try columns.append(UnsafeRawBufferPointer(rebasing: rest[0..<take]))
            spooled += take
            rest = UnsafeRawBufferPointer(rebasing: rest[take...])
            guard h.hasExtensions else { return spooled < total }
            trailing += rest.prefix(maxTrailing - trailing.count)
            guard trailing.count < maxTrailing else {
                throw SceneIOError.tooLarge(file: file, offset: 14, expected: "extension records under \(maxTrailing) bytes", found: "more")
            }
            return true
        }
        guard let header, let columns else {
            throw SceneIOError.truncated(file: file, offset: size, expected: "a 16-byte NGSP header inside the gzip stream")
        }
        guard spooled == total else {
            throw SceneIOError.truncated(file: file, offset: size, expected: "\(16 + total) bytes of inflated data for \(header.count) points, got \(16 + spooled)")
        }
        var ext = SPZExtensions()
        if header.hasExtensions {
            // Offsets in the records' messages are the inflated stream's, as the whole-file reader says them.
            ext = try withSparse(trailing, at: 16 + total, file: file) {
                try SPZExtensions.parse($0, from: 16 + total, to: $0.count, inflated: true)
            }
        }
        return try SPZSplatStream(columns: columns, header: header, extensions: ext)
    }

    private init(columns: SpooledColumns, header: SPZReader.Header, extensions ext: SPZExtensions) throws {
        (_, map, shSigns) = try SPZReader.storedFrame(ext, header, file: columns.file)
        self.columns = columns; self.header = header; warnings = ext.warnings
    }

    public func next(maxSplats: Int) throws -> SplatCloud? {
        guard row < count else { return nil }
        let n = min(count - row, max(1, maxSplats))
        var cloud = SplatCloud(shDegree: header.degree)
        cloud.reserveCapacity(n)
        try append(row..<(row + n), to: &cloud)
        row += n
        return cloud
    }

    /// Splats 0, step, 2·step…, a splat at a time from the spool, without disturbing `next`.
    public func sample(step: Int) throws -> SplatCloud {
        var cloud = SplatCloud(shDegree: header.degree)
        cloud.reserveCapacity((count + max(1, step) - 1) / max(1, step))
        for i in stride(from: 0, to: count, by: max(1, step)) { try append(i..<(i + 1), to: &cloud) }
        return cloud
    }

    /// Reads the splats `range` from the spool and decodes them onto `cloud`.
    private func append(_ range: Range<Int>, to cloud: inout SplatCloud) throws {
        let (h, map, signs, file) = (header, map, shSigns, columns.file)
        try columns.withSlices(splats: range, buffer: &buffer) { slices in
            SPZReader.decode(slices.map { ByteView(bytes: $0, file: file) }, splats: range.count, h, map: map, shSigns: signs, into: &cloud)
        }
    }

    // MARK: - Views for the shared checks

    /// Runs `body` over the file mapped read-only: the checks read the header, the extension
    /// records and the v4 table of contents where they lie (the same offsets as the whole-file
    /// reader's); only those pages are touched.
    private static func withMapped<T>(_ fd: Int32, size: Int, file: String, _ body: (ByteView) throws -> T) throws -> T {
        guard let base = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), base != UnsafeMutableRawPointer(bitPattern: -1) else {
            throw SceneIOError.unreadable(file: file, reason: String(cString: strerror(errno)))
        }
        defer { munmap(base, size) }
        return try body(ByteView(bytes: UnsafeRawBufferPointer(start: base, count: size), file: file))
    }

    /// Runs `body` over a view of `offset + bytes.count` bytes whose last ones are `bytes`: an
    /// anonymous mapping left untouched (and so not resident) before them, so offsets into the
    /// view are offsets into the inflated stream.
    private static func withSparse<T>(_ bytes: [UInt8], at offset: Int, file: String, _ body: (ByteView) throws -> T) throws -> T {
        let length = offset + bytes.count
        guard let base = mmap(nil, max(1, length), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0),
              base != UnsafeMutableRawPointer(bitPattern: -1) else {
            throw SceneIOError.unreadable(file: file, reason: "cannot map \(length) bytes of address space: \(String(cString: strerror(errno)))")
        }
        defer { munmap(base, max(1, length)) }
        if !bytes.isEmpty { bytes.withUnsafeBytes { (base + offset).copyMemory(from: $0.baseAddress!, byteCount: $0.count) } }
        return try body(ByteView(bytes: UnsafeRawBufferPointer(start: base, count: length), file: file))
    }
}
