// SceneIO — DecompressStream: gzip (zlib) and zstd inflated from a file a piece at a time.
// The bounded `.spz` stream's counterpart of `Decompress`: input is read with `pread` and output
// handed to a sink in pieces of at most `piece` bytes, so memory is two fixed buffers whatever the
// file's size. The checks are `Decompress`'s (the sink enforces the size the header promises).
import CZlib
import CZstd
import Foundation

/// Incremental gzip and zstd decompression from a file descriptor into a sink.
enum DecompressStream {
    /// Bytes read from the file, and handed to the sink, at a time.
    static let piece = 1 << 20

    /// Inflates the gzip stream that fills the file `fd` (`size` bytes) and hands its output to
    /// `sink` in order, until the stream ends, the file ends (a cut-short stream: the caller sees
    /// fewer bytes than it wanted) or `sink` returns false.
    /// - Parameter progress: called with the file bytes consumed so far.
    /// - Throws: `SceneIOError.badBytes` (offset in the compressed stream) for corrupt data,
    ///   `.unreadable` when the file cannot be read, or what `sink` throws.
    static func gunzip(_ fd: Int32, size: Int, file: String, progress: ((Int) -> Void)? = nil,
                       sink: (UnsafeRawBufferPointer) throws -> Bool) throws {
        guard size > 0 else { throw SceneIOError.truncated(file: file, offset: 0, expected: "gzip data") }
        var strm = z_stream()
        var rc = inflateInit2_(&strm, 16 + 15, zlibVersion(), Int32(MemoryLayout<z_stream>.size))
        guard rc == Z_OK else { throw SceneIOError.unreadable(file: file, reason: "zlib inflateInit2 failed (\(rc))") }
        defer { inflateEnd(&strm) }
        let input = UnsafeMutableRawBufferPointer.allocate(byteCount: piece, alignment: 16)
        let output = UnsafeMutableRawBufferPointer.allocate(byteCount: piece, alignment: 16)
        defer { input.deallocate(); output.deallocate() }
        var fileOffset = 0
        while true {
            if strm.avail_in == 0 && fileOffset < size {
                let got = SpooledColumns.pread(fd, input.baseAddress!, min(piece, size - fileOffset), at: fileOffset)
                guard got > 0 else {
                    throw SceneIOError.unreadable(file: file, reason: got < 0 ? String(cString: strerror(errno)) : "the file shrank while it was read")
                }
                strm.next_in = input.baseAddress!.assumingMemoryBound(to: Bytef.self)
                strm.avail_in = UInt32(got)
                fileOffset += got
                progress?(fileOffset)
            }
            strm.next_out = output.baseAddress!.assumingMemoryBound(to: Bytef.self)
            strm.avail_out = UInt32(piece)
            rc = inflate(&strm, Z_NO_FLUSH)
            let produced = piece - Int(strm.avail_out)
            if produced > 0, try !sink(UnsafeRawBufferPointer(rebasing: output[0..<produced])) { return }
            if rc == Z_STREAM_END { return }
            let inputLeft = strm.avail_in > 0 || fileOffset < size
            if rc == Z_BUF_ERROR && !inputLeft { return }                  // input ran out: truncated stream
            if rc == Z_OK && produced == 0 && !inputLeft { return }
            if rc != Z_OK && !(rc == Z_BUF_ERROR && strm.avail_in == 0) {
                let msg = strm.msg.map { String(cString: $0) } ?? "error \(rc)"
                throw SceneIOError.badBytes(file: file, offset: Int(strm.total_in), expected: "valid gzip data", found: msg)
            }
        }
    }

    /// Decompresses the zstd data at `offset` of the file `fd` (`compressed` bytes) into exactly
    /// `size` bytes, handed to `sink` in order.
    /// - Throws: `SceneIOError.badBytes` at `offset` for corrupt data, a frame that says another
    ///   size, or more or fewer bytes than `size`; `.truncated` when the file ends first.
    static func zstd(_ fd: Int32, offset: Int, compressed: Int, size: Int, file: String,
                     sink: (UnsafeRawBufferPointer) throws -> Void) throws {
        guard size > 0 else { return }
        guard compressed > 0 else { throw SceneIOError.truncated(file: file, offset: offset, expected: "a zstd stream") }
        guard let ds = ZSTD_createDStream() else { throw SceneIOError.unreadable(file: file, reason: "zstd could not allocate a decompression stream") }
        defer { ZSTD_freeDStream(ds) }
        let initialised = ZSTD_initDStream(ds)
        if ZSTD_isError(initialised) != 0 {
            throw SceneIOError.unreadable(file: file, reason: "zstd: \(String(cString: ZSTD_getErrorName(initialised)))")
        }
        let input = UnsafeMutableRawBufferPointer.allocate(byteCount: piece, alignment: 16)
        let output = UnsafeMutableRawBufferPointer.allocate(byteCount: piece, alignment: 16)
        defer { input.deallocate(); output.deallocate() }
        var consumed = 0, produced = 0
        func bad(_ expected: String, _ found: String) -> SceneIOError {
            .badBytes(file: file, offset: offset, expected: expected, found: found)
        }
        while consumed < compressed {
            let want = min(piece, compressed - consumed)
            let got = SpooledColumns.pread(fd, input.baseAddress!, want, at: offset + consumed)
            guard got == want else {
                throw SceneIOError.truncated(file: file, offset: offset + consumed + max(0, got), expected: "a zstd stream of \(compressed) bytes")
            }
            if consumed == 0 {
                // As `Decompress.zstd`: a frame header naming another size is refused up front.
                let frame = ZSTD_getFrameContentSize(input.baseAddress!, got)
                if frame != ZSTD_CONTENTSIZE_UNKNOWN && frame != ZSTD_CONTENTSIZE_ERROR && frame != UInt64(size) {
                    throw bad("a zstd frame of \(size) bytes", "\(frame) bytes")
                }
            }
            consumed += got
            var inBuf = ZSTD_inBuffer(src: UnsafeRawPointer(input.baseAddress!), size: got, pos: 0)
            var full = false
            while inBuf.pos < inBuf.size || full {
                var outBuf = ZSTD_outBuffer(dst: output.baseAddress!, size: piece, pos: 0)
                let r = ZSTD_decompressStream(ds, &outBuf, &inBuf)
                if ZSTD_isError(r) != 0 { throw bad("valid zstd data", String(cString: ZSTD_getErrorName(r))) }
                guard outBuf.pos <= size - produced else { throw bad("\(size) decompressed bytes", "more") }
                produced += outBuf.pos
                if outBuf.pos > 0 { try sink(UnsafeRawBufferPointer(rebasing: output[0..<outBuf.pos])) }
                full = outBuf.pos == piece
            }
        }
        guard produced == size else { throw bad("\(size) decompressed bytes", "\(produced)") }
    }
}
