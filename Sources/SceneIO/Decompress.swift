// SceneIO — Decompress: gzip (zlib) and zstd with output sizes fixed in advance and bombs rejected.
import CZlib
import CZstd

/// Inflate/decompress helpers that write into a buffer sized from the file's own header.
enum Decompress {
    /// Largest deflate expansion (zlib's documented limit is 1032:1) plus slack.
    static let maxGzipRatio = 1100
    /// Largest zstd expansion accepted (real splat streams stay far below; RLE blocks could reach ~32768:1).
    static let maxZstdRatio = 8192

    /// Inflates the first `limit` bytes of a gzip stream. Returns fewer bytes if the stream ends
    /// first; never produces more than `limit`.
    static func gunzip(_ input: UnsafeRawBufferPointer, limit: Int, file: String) throws -> [UInt8] {
        guard limit >= 0 else { return [] }
        var out = [UInt8](repeating: 0, count: limit)
        var produced = 0
        var strm = z_stream()
        var rc = inflateInit2_(&strm, 16 + 15, zlibVersion(), Int32(MemoryLayout<z_stream>.size))
        guard rc == Z_OK else { throw SceneIOError.unreadable(file: file, reason: "zlib inflateInit2 failed (\(rc))") }
        defer { inflateEnd(&strm) }
        guard let inBase = input.baseAddress, input.count > 0 else {
            throw SceneIOError.truncated(file: file, offset: 0, expected: "gzip data")
        }
        strm.next_in = UnsafeMutablePointer(mutating: inBase.assumingMemoryBound(to: Bytef.self))
        strm.avail_in = UInt32(clamping: input.count)
        try out.withUnsafeMutableBytes { ob in
            guard let outBase = ob.baseAddress else { return }
            strm.next_out = outBase.assumingMemoryBound(to: Bytef.self)
            while produced < limit {
                strm.avail_out = UInt32(clamping: limit - produced)
                let before = strm.avail_out
                rc = inflate(&strm, Z_NO_FLUSH)
                produced += Int(before - strm.avail_out)
                if rc == Z_STREAM_END { break }
                if rc == Z_BUF_ERROR && strm.avail_in == 0 { break }   // input ran out: truncated stream
                if rc != Z_OK {
                    let msg = strm.msg.map { String(cString: $0) } ?? "error \(rc)"
                    throw SceneIOError.badBytes(file: file, offset: Int(strm.total_in), expected: "valid gzip data", found: msg)
                }
            }
        }
        if produced < limit { out.removeSubrange(produced...) }
        return out
    }

    /// Decompresses one zstd frame into exactly `size` bytes.
    static func zstd(_ input: UnsafeRawBufferPointer, size: Int, file: String, offset: Int) throws -> [UInt8] {
        guard size > 0 else { return [] }
        guard let inBase = input.baseAddress else { throw SceneIOError.truncated(file: file, offset: offset, expected: "a zstd stream") }
        let frame = ZSTD_getFrameContentSize(inBase, input.count)
        if frame != ZSTD_CONTENTSIZE_UNKNOWN && frame != ZSTD_CONTENTSIZE_ERROR && frame != UInt64(size) {
            throw SceneIOError.badBytes(file: file, offset: offset, expected: "a zstd frame of \(size) bytes", found: "\(frame) bytes")
        }
        var out = [UInt8](repeating: 0, count: size)
        let r = out.withUnsafeMutableBytes { ob in ZSTD_decompress(ob.baseAddress, size, inBase, input.count) }
        if ZSTD_isError(r) != 0 {
            throw SceneIOError.badBytes(file: file, offset: offset, expected: "valid zstd data", found: String(cString: ZSTD_getErrorName(r)))
        }
        guard r == size else { throw SceneIOError.badBytes(file: file, offset: offset, expected: "\(size) decompressed bytes", found: "\(r)") }
        return out
    }
}
