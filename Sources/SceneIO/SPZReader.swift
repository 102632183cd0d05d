// SceneIO — SPZReader: Niantic .spz v2/v3 (gzip) and v4 (zstd streams), converted RUB → RDF.
//
// Quantisation (nianticlabs/spz load-spz.cc): positions 24-bit signed fixed point with
// `fractionalBits`; alpha byte/255 is the opacity after the sigmoid; colour dc = (byte/255 − 0.5)/0.15;
// log-scale byte/16 − 10; v2 rotation xyz = byte/127.5 − 1 (w ≥ 0 rebuilt); v3/v4 "smallest three";
// SH (byte − 128)/128, coefficient-major with channel innermost (SplatCloud's own layout).
import Foundation
import RenderCore

/// Reads `.spz` files.
enum SPZReader {
    static let magic: UInt32 = 0x5053_474e  // "NGSP" little-endian
    static let colorScale: Float = 0.15

    /// SH band signs for the RUB → RDF flip (y and z negated), per rest coefficient in 3DGS order.
    static let shFlip: [Float] = [-1, -1, 1, -1, 1, 1, -1, 1, -1, 1, -1, -1, 1, -1, 1]

    /// Header fields shared by all versions.
    struct Header {
        var version: Int, count: Int, degree: Int, fractionalBits: Int, flags: UInt8
        /// SH coefficients per channel stored in the file.
        var fileRest: Int { (degree + 1) * (degree + 1) - 1 }
        /// Sizes of the attribute blocks in file order: positions, alphas, colours, scales, rotations, SH.
        var blockSizes: [Int] {
            [count * 9, count, count * 3, count * 3, count * (version >= 3 ? 4 : 3), count * fileRest * 3]
        }
    }

    static func read(_ view: ByteView, progress: SceneLoadProgress?) throws -> ReadResult {
        let file = view.file
        guard view.count >= 2 else { throw SceneIOError.truncated(file: file, offset: 0, expected: "an .spz header") }
        let payload: [UInt8]
        let header: Header
        let gzipped = view.u8(0) == 0x1f && view.u8(1) == 0x8b
        if gzipped {
            // v2/v3: the whole file is gzip; inflate the header first, then exactly the payload size.
            let head = try Decompress.gunzip(view.bytes, limit: 16, file: file)
            guard head.count == 16 else { throw SceneIOError.truncated(file: file, offset: view.count, expected: "a 16-byte NGSP header inside the gzip stream") }
            header = try head.withUnsafeBytes { try parseHeader(ByteView(bytes: $0, file: file), gzip: true) }
            let (total, sizes) = try payloadSize(header, file: file)
            guard total <= view.count * Decompress.maxGzipRatio + 4096 else {
                throw SceneIOError.tooLarge(file: file, offset: 8, expected: "a point count a \(view.count)-byte gzip file can hold", found: "\(header.count) points")
            }
            progress?(0, view.count)
            let all = try Decompress.gunzip(view.bytes, limit: 16 + total, file: file)
            guard all.count == 16 + total else {
                throw SceneIOError.truncated(file: file, offset: view.count, expected: "\(16 + total) bytes of inflated data for \(header.count) points, got \(all.count)")
            }
            _ = sizes
            payload = Array(all[16...])
        } else {
            header = try parseHeader(view, gzip: false)
            if header.version >= 4 {
                payload = try readV4Streams(view, header)
            } else {
                // An uncompressed NGSP v2/v3 stream (seen from some tools).
                let (total, _) = try payloadSize(header, file: file)
                try view.need(16, total, "\(total) bytes of splat data for \(header.count) points")
                payload = Array(view.bytes[16..<(16 + total)])
            }
        }
        progress?(view.count / 2, view.count)
        let cloud = try payload.withUnsafeBytes { try decode(ByteView(bytes: $0, file: file), header) }
        progress?(view.count, view.count)
        let props = ["position 3×int24", "alpha u8", "color 3×u8", "scale 3×u8", header.version >= 3 ? "rotation u32 smallest-three" : "rotation 3×u8", "sh \(header.fileRest)×3 u8"]
        return ReadResult(scene: .splats(cloud), format: .spz,
                          variant: header.version >= 4 ? "zstd streams (RUB→RDF)" : gzipped ? "gzip (RUB→RDF)" : "uncompressed (RUB→RDF)",
                          version: "\(header.version)",
                          elements: [SceneInfo.Element(name: "gaussian", count: header.count, properties: props)])
    }

    /// Parses the NGSP header (16 bytes for v2/v3, 32 for v4).
    static func parseHeader(_ v: ByteView, gzip: Bool) throws -> Header {
        let file = v.file
        try v.need(0, 16, "a 16-byte NGSP header")
        guard v.u32(0) == magic else { throw SceneIOError.badBytes(file: file, offset: 0, expected: "magic NGSP", found: v.sample(0, 4)) }
        let version = Int(v.u32(4))
        guard (2...4).contains(version), !(gzip && version == 4) else {
            throw SceneIOError.badBytes(file: file, offset: 4, expected: gzip ? "version 2 or 3 (gzip)" : "version 2, 3 or 4", found: "\(version)")
        }
        let count = Int(v.u32(8))
        let degree = Int(v.u8(12))
        guard degree <= 4 else { throw SceneIOError.badBytes(file: file, offset: 12, expected: "SH degree 0…4", found: "\(degree)") }
        let fb = Int(v.u8(13))
        guard fb <= 24 else { throw SceneIOError.badBytes(file: file, offset: 13, expected: "fractional bits 0…24", found: "\(fb)") }
        return Header(version: version, count: count, degree: degree, fractionalBits: fb, flags: v.u8(14))
    }

    /// Total payload bytes (checked arithmetic).
    static func payloadSize(_ h: Header, file: String) throws -> (Int, [Int]) {
        var total = 0
        let per = 9 + 1 + 3 + 3 + (h.version >= 3 ? 4 : 3) + h.fileRest * 3
        guard let t = SizeMath.mul(h.count, per) else {
            throw SceneIOError.tooLarge(file: file, offset: 8, expected: "a point count that fits in memory", found: "\(h.count)")
        }
        total = t
        return (total, h.blockSizes)
    }

    /// Reads the v4 table of contents and decompresses each zstd stream into one payload.
    static func readV4Streams(_ v: ByteView, _ h: Header) throws -> [UInt8] {
        let file = v.file
        try v.need(0, 32, "a 32-byte NGSP v4 header")
        let numStreams = Int(v.u8(15))
        let toc = Int(v.u32(16))
        let expected = h.blockSizes.filter { $0 > 0 }
        guard numStreams == expected.count else {
            throw SceneIOError.badBytes(file: file, offset: 15, expected: "\(expected.count) streams for SH degree \(h.degree)", found: "\(numStreams)")
        }
        guard toc >= 32 else { throw SceneIOError.badBytes(file: file, offset: 16, expected: "a TOC offset ≥ 32", found: "\(toc)") }
        try v.need(toc, numStreams * 16, "a table of \(numStreams) streams")
        var o = toc + numStreams * 16
        var payload: [UInt8] = []
        let (total, _) = try payloadSize(h, file: file)
        guard total <= v.count * Decompress.maxZstdRatio + (1 << 20) else {
            throw SceneIOError.tooLarge(file: file, offset: 8, expected: "a point count a \(v.count)-byte file can hold", found: "\(h.count) points")
        }
        payload.reserveCapacity(total)
        for s in 0..<numStreams {
            let e = toc + s * 16
            let comp = v.u64(e), raw = v.u64(e + 8)
            guard raw == UInt64(expected[s]) else {
                throw SceneIOError.badBytes(file: file, offset: e + 8, expected: "stream \(s) of \(expected[s]) bytes", found: "\(raw)")
            }
            guard comp <= UInt64(v.count - o) else {
                throw SceneIOError.truncated(file: file, offset: o, expected: "stream \(s) of \(comp) compressed bytes")
            }
            let c = Int(comp)
            guard expected[s] <= c * Decompress.maxZstdRatio + (1 << 20) else {
                throw SceneIOError.tooLarge(file: file, offset: e, expected: "at most \(Decompress.maxZstdRatio)× expansion", found: "\(c) → \(expected[s]) bytes")
            }
            payload += try Decompress.zstd(UnsafeRawBufferPointer(rebasing: v.bytes[o..<(o + c)]), size: expected[s], file: file, offset: o)
            o += c
        }
        return payload
    }

    /// Decodes the attribute blocks into a cloud in the PLY frame (RDF).
    static func decode(_ p: ByteView, _ h: Header) throws -> SplatCloud {
        let n = h.count
        let sizes = h.blockSizes
        var starts: [Int] = []
        var o = 0
        for s in sizes { starts.append(o); o += s }
        try p.need(0, o, "\(o) bytes of splat data")
        let degree = min(h.degree, 3)
        var cloud = SplatCloud(shDegree: degree)
        cloud.reserveCapacity(n)
        let kept = SplatCloud.restCount(degree: degree)
        var rest = [Float](repeating: 0, count: kept * 3)
        let fixed = Float(1 << h.fractionalBits)
        let half = Float(0.5).squareRoot()
        for i in 0..<n {
            var pos = Vec3.zero
            for a in 0..<3 {
                let b = starts[0] + (i * 3 + a) * 3
                var raw = Int32(p.u8(b)) | Int32(p.u8(b + 1)) << 8 | Int32(p.u8(b + 2)) << 16
                if raw & 0x80_0000 != 0 { raw |= -0x100_0000 }       // sign-extend 24 bits
                pos[a] = Float(raw) / fixed
            }
            let opacity = Float(p.u8(starts[1] + i)) / 255
            let cb = starts[2] + i * 3
            let dc = (Vec3(Float(p.u8(cb)), Float(p.u8(cb + 1)), Float(p.u8(cb + 2))) / 255 - 0.5) / colorScale
            let sb = starts[3] + i * 3
            let scale = Vec3(expf(Float(p.u8(sb)) / 16 - 10), expf(Float(p.u8(sb + 1)) / 16 - 10), expf(Float(p.u8(sb + 2)) / 16 - 10))
            var q: SIMD4<Float>                                       // x, y, z, w
            if h.version >= 3 {
                var comp = p.u32(starts[4] + i * 4)
                let largest = Int(comp >> 30)
                q = .zero
                var sumSq: Float = 0
                for k in stride(from: 3, through: 0, by: -1) where k != largest {
                    let mag = Float(comp & 511), neg = (comp >> 9) & 1 == 1
                    comp >>= 10
                    let val = half * mag / 511
                    q[k] = neg ? -val : val
                    sumSq += val * val
                }
                q[largest] = max(0, 1 - sumSq).squareRoot()
            } else {
                let rb = starts[4] + i * 3
                let xyz = Vec3(Float(p.u8(rb)), Float(p.u8(rb + 1)), Float(p.u8(rb + 2))) / 127.5 - 1
                q = SIMD4(xyz.x, xyz.y, xyz.z, max(0, 1 - xyz.dot(xyz)).squareRoot())
            }
            if kept > 0 {
                let base = starts[5] + i * h.fileRest * 3
                for k in 0..<kept {
                    for c in 0..<3 { rest[k * 3 + c] = (Float(p.u8(base + k * 3 + c)) - 128) / 128 * shFlip[k] }
                }
            }
            // RUB → RDF: position (x, −y, −z), quaternion (w, x, −y, −z), SH signs above.
            cloud.append(position: Vec3(pos.x, -pos.y, -pos.z), scale: scale,
                         rotation: Quaternion(w: q.w, x: q.x, y: -q.y, z: -q.z).normalized,
                         opacity: opacity, dc: dc, rest: rest)
        }
        return cloud
    }
}
