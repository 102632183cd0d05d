// SceneIO — Compress: gzip (zlib) and zstd for the writers; failures are `unwritable` errors.
import CZlib
import CZstd

/// One-shot compressors over whole buffers.
enum Compress {
    /// Deflates bytes into a gzip member (zlib's default level, window 15, memLevel 9 — what
    /// nianticlabs/spz uses for .spz v2/v3).
    static func gzip(_ input: [UInt8], file: String) throws -> [UInt8] {
        var strm = z_stream()
        var rc = deflateInit2_(&strm, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 16 + 15, 9, Z_DEFAULT_STRATEGY,
                               zlibVersion(), Int32(MemoryLayout<z_stream>.size))
        guard rc == Z_OK else { throw SceneIOError.unwritable(file: file, reason: "zlib deflateInit2 failed (\(rc))") }
        defer { deflateEnd(&strm) }
        var out = [UInt8](repeating: 0, count: Int(deflateBound(&strm, uLong(input.count))) + 64)
        var produced = 0
        try input.withUnsafeBytes { ib in
            // zlib takes a mutable pointer but does not write through next_in.
            strm.next_in = UnsafeMutablePointer(mutating: ib.baseAddress?.assumingMemoryBound(to: Bytef.self))
            var remaining = ib.count
            var flush: Int32
            repeat {                                             // avail_in is 32-bit: feed ≤ 1 GiB at a time
                let chunk = min(remaining, 1 << 30)
                strm.avail_in = UInt32(chunk)
                remaining -= chunk
                flush = remaining == 0 ? Z_FINISH : Z_NO_FLUSH
                repeat {                                         // zlib's idiom: call again while the output filled up
                    if produced == out.count { out += [UInt8](repeating: 0, count: max(4096, out.count / 2)) }
                    rc = out.withUnsafeMutableBytes { ob -> Int32 in
                        guard let base = ob.baseAddress else { return Z_STREAM_ERROR }
                        strm.next_out = base.assumingMemoryBound(to: Bytef.self) + produced
                        strm.avail_out = UInt32(clamping: ob.count - produced)
                        let before = strm.avail_out
                        let r = deflate(&strm, flush)
                        produced += Int(before - strm.avail_out)
                        return r
                    }
                    guard rc != Z_STREAM_ERROR else { throw SceneIOError.unwritable(file: file, reason: "zlib deflate failed (\(rc))") }
                } while strm.avail_out == 0
            } while flush != Z_FINISH
        }
        guard rc == Z_STREAM_END else { throw SceneIOError.unwritable(file: file, reason: "zlib deflate did not finish (\(rc))") }
        out.removeSubrange(produced...)
        return out
    }

    /// Compresses bytes into one zstd frame (content size recorded), at `level` (nianticlabs/spz
    /// writes v4 streams at 12).
    static func zstd(_ input: [UInt8], level: Int32 = 12, file: String) throws -> [UInt8] {
        var out = [UInt8](repeating: 0, count: ZSTD_compressBound(input.count))
        let n = input.withUnsafeBytes { ib in
            out.withUnsafeMutableBytes { ob in ZSTD_compress(ob.baseAddress, ob.count, ib.baseAddress, ib.count, level) }
        }
        guard ZSTD_isError(n) == 0 else {
            throw SceneIOError.unwritable(file: file, reason: "zstd: \(String(cString: ZSTD_getErrorName(n)))")
        }
        out.removeSubrange(n...)
        return out
    }
}
