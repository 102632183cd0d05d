// SceneIO — SPZReader: Niantic .spz v2/v3 (gzip) and v4 (zstd streams), converted RUB → RDF.
//
// Quantisation (nianticlabs/spz load-spz.cc): positions 24-bit signed fixed point with
// `fractionalBits`; alpha byte/255 is the opacity after the sigmoid; colour dc = (byte/255 − 0.5)/0.15;
// log-scale byte/16 − 10; v2 rotation xyz = byte/127.5 − 1 (w ≥ 0 rebuilt); v3/v4 "smallest three";
// SH (byte − 128)/128, coefficient-major with channel innermost (SplatCloud's own layout), all of
// it (degree 4 included). Header flags: 0x1 antialiased (→ `SceneInfo.antialiased`), 0x2 extension
// records (`SPZExtensions`): an SPZ_ADOBE_coordinate_system record replaces RUB as the stored frame
// (Y-up frames always; Z-up frames only without SH and only the four on whose axes the reference
// agrees with the names, else a one-line error); unknown records are skipped with a warning.
// The checks before decoding (header, sizes, v4 table of contents, frame) and the per-splat
// decoding (`decode(_:splats:…)`, over a run of splats) are shared with `SPZSplatStream`, which
// reads the same files in bounded memory: both give the same floats, bit for bit.
import Foundation
import RenderCore

/// Reads `.spz` files.
enum SPZReader {
    static let magic: UInt32 = 0x5053_474e  // "NGSP" little-endian
    static let colorScale: Float = 0.15

    /// Header fields shared by all versions.
    struct Header {
        var version: Int, count: Int, degree: Int, fractionalBits: Int, flags: UInt8
        /// Flag 0x1: the splats were trained for antialiased (Mip-Splatting style) rendering.
        var antialiased: Bool { flags & 0x1 != 0 }
        /// Flag 0x2: extension records follow (v4: before the TOC; v2/v3: after the SH block).
        var hasExtensions: Bool { flags & 0x2 != 0 }
        /// SH coefficients per channel stored in the file.
        var fileRest: Int { (degree + 1) * (degree + 1) - 1 }
        /// Bytes per splat of the attribute blocks in file order: positions, alphas, colours,
        /// scales, rotations, SH.
        var bytesPerSplat: [Int] { [9, 1, 3, 3, version >= 3 ? 4 : 3, fileRest * 3] }
        /// Sizes of the attribute blocks in file order: positions, alphas, colours, scales, rotations, SH.
        var blockSizes: [Int] { bytesPerSplat.map { count * $0 } }
    }

    /// The attribute blocks' names, in file order (for messages).
    static let blockNames = ["positions", "alphas", "colours", "scales", "rotations", "SH"]

    /// Most bytes of extension records read after the SH block of a gzip (v2/v3) stream.
    static let maxTrailingExtensionBytes = 1 << 20

    static func read(_ view: ByteView, progress: SceneLoadProgress?) throws -> ReadResult {
        let file = view.file
        guard view.count >= 2 else { throw SceneIOError.truncated(file: file, offset: 0, expected: "an .spz header") }
        var payload: [UInt8]
        var base = 0                                     // offset of the first attribute block in `payload`
        let header: Header
        var ext = SPZExtensions()
        let gzipped = view.u8(0) == 0x1f && view.u8(1) == 0x8b
        if gzipped {
            // v2/v3: the whole file is gzip; inflate the header first, then exactly the payload size
            // (plus the extension records that follow it when flag 0x2 says there are some).
            let head = try Decompress.gunzip(view.bytes, limit: 16, file: file)
            guard head.count == 16 else { throw SceneIOError.truncated(file: file, offset: view.count, expected: "a 16-byte NGSP header inside the gzip stream") }
            header = try head.withUnsafeBytes { try parseHeader(ByteView(bytes: $0, file: file), gzip: true) }
            let total = try gzipPayloadSize(header, fileBytes: view.count, file: file)
            progress?(0, view.count)
            let limit = 16 + total + (header.hasExtensions ? maxTrailingExtensionBytes : 0)
            payload = try Decompress.gunzip(view.bytes, limit: limit, file: file)
            guard payload.count >= 16 + total else {
                throw SceneIOError.truncated(file: file, offset: view.count, expected: "\(16 + total) bytes of inflated data for \(header.count) points, got \(payload.count)")
            }
            if header.hasExtensions {
                guard payload.count < limit else {
                    throw SceneIOError.tooLarge(file: file, offset: 14, expected: "extension records under \(maxTrailingExtensionBytes) bytes", found: "more")
                }
                ext = try payload.withUnsafeBytes {
                    try SPZExtensions.parse(ByteView(bytes: $0, file: file), from: 16 + total, to: $0.count, inflated: true)
                }
            }
            base = 16
        } else {
            header = try parseHeader(view, gzip: false)
            if header.version >= 4 {
                payload = try readV4Streams(view, header)
                if header.hasExtensions {
                    ext = try SPZExtensions.parse(view, from: 32, to: Int(view.u32(16)), inflated: false)
                }
            } else {
                // An uncompressed NGSP v2/v3 stream (seen from some tools).
                let total = try payloadSize(header, file: file)
                try view.need(16, total, "\(total) bytes of splat data for \(header.count) points")
                payload = Array(view.bytes[16..<(16 + total)])
                if header.hasExtensions { ext = try SPZExtensions.parse(view, from: 16 + total, to: view.count, inflated: false) }
            }
        }
        progress?(view.count / 2, view.count)
        let (frame, map, signs) = try storedFrame(ext, header, file: file)
        let cloud = try payload.withUnsafeBytes { try decode(ByteView(bytes: $0, file: file), base: base, header, map: map, shSigns: signs) }
        payload = []
        progress?(view.count, view.count)
        let props = ["position 3×int24", "alpha u8", "color 3×u8", "scale 3×u8", header.version >= 3 ? "rotation u32 smallest-three" : "rotation 3×u8", "sh \(header.fileRest)×3 u8"]
        var elements = [SceneInfo.Element(name: "gaussian", count: header.count, properties: props)]
        if !ext.records.isEmpty { elements.append(SceneInfo.Element(name: "extension", count: ext.records.count, properties: ext.records)) }
        let axes = frame == .rdf ? "RDF as stored" : "\(frame.name)→RDF"
        return ReadResult(scene: .splats(cloud), format: .spz,
                          variant: header.version >= 4 ? "zstd streams (\(axes))" : gzipped ? "gzip (\(axes))" : "uncompressed (\(axes))",
                          version: "\(header.version)", elements: elements,
                          warnings: ext.warnings, antialiased: header.antialiased)
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
    static func payloadSize(_ h: Header, file: String) throws -> Int {
        let per = h.bytesPerSplat.reduce(0, +)
        guard let t = SizeMath.mul(h.count, per) else {
            throw SceneIOError.tooLarge(file: file, offset: 8, expected: "a point count that fits in memory", found: "\(h.count)")
        }
        return t
    }

    /// The payload size of a v2/v3 gzip file of `fileBytes` bytes, refused when no gzip stream
    /// that size can inflate to it (a bomb, or a header lying about the point count).
    static func gzipPayloadSize(_ h: Header, fileBytes: Int, file: String) throws -> Int {
        let total = try payloadSize(h, file: file)
        guard total <= fileBytes * Decompress.maxGzipRatio + 4096 else {
            throw SceneIOError.tooLarge(file: file, offset: 8, expected: "a point count a \(fileBytes)-byte gzip file can hold", found: "\(h.count) points")
        }
        return total
    }

    /// The frame the splats are stored in (RUB unless an extension record says otherwise), the map
    /// from it to RDF and its sign per SH rest coefficient; refused for frames the reader cannot
    /// take (see the file header).
    static func storedFrame(_ ext: SPZExtensions, _ header: Header, file: String) throws -> (frame: SPZCoordinateSystem, map: SPZAxisMap, shSigns: [Float]) {
        let frame = ext.coordinateSystem ?? .rub
        guard !frame.isAmbiguous else {
            throw SceneIOError.badBytes(file: file, offset: ext.coordinateSystemOffset,
                                        expected: "an SPZ_ADOBE_coordinate_system other than LFD, RFD, LBU, RBU (nianticlabs/spz turns those as LBU, RBU, LFD, RFD)",
                                        found: frame.name)
        }
        let map = frame.toRDF
        guard let signs = map.shSigns(restCount: header.fileRest) ?? (header.degree == 0 ? [] : nil) else {
            throw SceneIOError.badBytes(file: file, offset: ext.coordinateSystemOffset,
                                        expected: "a Y-up SPZ_ADOBE_coordinate_system when SH bands are present (SH rotation between Y-up and Z-up is not supported)",
                                        found: "\(frame.name) with SH degree \(header.degree)")
        }
        return (frame, map, signs)
    }

    /// One v4 stream: where its zstd bytes lie in the file and how many bytes they inflate to.
    struct V4Stream {
        /// File offset and length of the compressed bytes.
        let offset: Int, compressed: Int
        /// Bytes once decompressed (the attribute block's size).
        let size: Int
    }

    /// The v4 table of contents, checked against the header and a file of `fileBytes` bytes.
    /// `v` holds the file's first bytes, at least through the table (the whole file will do).
    static func v4Streams(_ v: ByteView, _ h: Header, fileBytes: Int) throws -> [V4Stream] {
        let file = v.file
        try v.need(0, 32, "a 32-byte NGSP v4 header")
        let numStreams = Int(v.u8(15))
        let toc = Int(v.u32(16))
        let expected = h.blockSizes.filter { $0 > 0 }
        guard numStreams == expected.count else {
            throw SceneIOError.badBytes(file: file, offset: 15, expected: "\(expected.count) streams for SH degree \(h.degree)", found: "\(numStreams)")
        }
        guard toc >= 32 else { throw SceneIOError.badBytes(file: file, offset: 16, expected: "a TOC offset ≥ 32", found: "\(toc)") }
        guard toc <= fileBytes else { throw SceneIOError.truncated(file: file, offset: fileBytes, expected: "a table of \(numStreams) streams at byte \(toc)") }
        try v.need(toc, numStreams * 16, "a table of \(numStreams) streams")
        var o = toc + numStreams * 16
        let total = try payloadSize(h, file: file)
        guard total <= fileBytes * Decompress.maxZstdRatio + (1 << 20) else {
            throw SceneIOError.tooLarge(file: file, offset: 8, expected: "a point count a \(fileBytes)-byte file can hold", found: "\(h.count) points")
        }
        var streams: [V4Stream] = []
        for s in 0..<numStreams {
            let e = toc + s * 16
            let comp = v.u64(e), raw = v.u64(e + 8)
            guard raw == UInt64(expected[s]) else {
                throw SceneIOError.badBytes(file: file, offset: e + 8, expected: "stream \(s) of \(expected[s]) bytes", found: "\(raw)")
            }
            guard comp <= UInt64(fileBytes - o) else {
                throw SceneIOError.truncated(file: file, offset: o, expected: "stream \(s) of \(comp) compressed bytes")
            }
            let c = Int(comp)
            guard expected[s] <= c * Decompress.maxZstdRatio + (1 << 20) else {
                throw SceneIOError.tooLarge(file: file, offset: e, expected: "at most \(Decompress.maxZstdRatio)× expansion", found: "\(c) → \(expected[s]) bytes")
            }
            streams.append(V4Stream(offset: o, compressed: c, size: expected[s]))
            o += c
        }
        return streams
    }

    /// Reads the v4 table of contents and decompresses each zstd stream into one payload.
    static func readV4Streams(_ v: ByteView, _ h: Header) throws -> [UInt8] {
        let streams = try v4Streams(v, h, fileBytes: v.count)
        var payload: [UInt8] = []
        payload.reserveCapacity(try payloadSize(h, file: v.file))
        for s in streams {
            payload += try Decompress.zstd(UnsafeRawBufferPointer(rebasing: v.bytes[s.offset..<(s.offset + s.compressed)]),
                                           size: s.size, file: v.file, offset: s.offset)
        }
        return payload
    }

    /// Decodes the attribute blocks (starting at byte `base` of `p`) into a cloud in the PLY
    /// frame (RDF): `map` takes stored coordinates to RDF, `shSigns` holds its sign per rest
    /// coefficient (3DGS order). Every SH coefficient is kept, degree 4 included.
    static func decode(_ p: ByteView, base: Int, _ h: Header, map: SPZAxisMap, shSigns: [Float]) throws -> SplatCloud {
        let total = h.blockSizes.reduce(0, +)
        try p.need(base, total, "\(total) bytes of splat data")
        var blocks: [ByteView] = []
        var o = base
        for s in h.blockSizes {
            blocks.append(ByteView(bytes: UnsafeRawBufferPointer(rebasing: p.bytes[o..<(o + s)]), file: p.file))
            o += s
        }
        var cloud = SplatCloud(shDegree: h.degree)
        cloud.reserveCapacity(h.count)
        decode(blocks, splats: h.count, h, map: map, shSigns: shSigns, into: &cloud)
        return cloud
    }

    /// Decodes `n` splats from their slices of the attribute blocks — `blocks[k]` holds block k's
    /// bytes (`Header.bytesPerSplat[k]` per splat) from the run's first splat on, in file order —
    /// and appends them to `cloud` in the PLY frame (RDF). The whole-file reader passes whole
    /// blocks, `SPZSplatStream` a block's slices: the same code gives the same floats.
    /// - Precondition: each slice holds `n` splats' bytes.
    static func decode(_ blocks: [ByteView], splats n: Int, _ h: Header, map: SPZAxisMap, shSigns: [Float], into cloud: inout SplatCloud) {
        precondition(blocks.count == 6 && zip(blocks, h.bytesPerSplat).allSatisfy { $0.count >= n * $1 }, "SPZ blocks shorter than the run")
        let (pos, alpha, color, scale, rot, shBlock) = (blocks[0], blocks[1], blocks[2], blocks[3], blocks[4], blocks[5])
        let kept = SplatCloud.restCount(degree: h.degree)
        var rest = [Float](repeating: 0, count: kept * 3)
        let fixed = Float(1 << h.fractionalBits)
        let half = Float(0.5).squareRoot()
        for i in 0..<n {
            var p = Vec3.zero
            for a in 0..<3 {
                let b = (i * 3 + a) * 3
                var raw = Int32(pos.u8(b)) | Int32(pos.u8(b + 1)) << 8 | Int32(pos.u8(b + 2)) << 16
                if raw & 0x80_0000 != 0 { raw |= -0x100_0000 }       // sign-extend 24 bits
                p[a] = Float(raw) / fixed
            }
            let opacity = Float(alpha.u8(i)) / 255
            let cb = i * 3
            let dc = (Vec3(Float(color.u8(cb)), Float(color.u8(cb + 1)), Float(color.u8(cb + 2))) / 255 - 0.5) / colorScale
            let sb = i * 3
            let s = Vec3(expf(Float(scale.u8(sb)) / 16 - 10), expf(Float(scale.u8(sb + 1)) / 16 - 10), expf(Float(scale.u8(sb + 2)) / 16 - 10))
            var q: SIMD4<Float>                                       // x, y, z, w
            if h.version >= 3 {
                var comp = rot.u32(i * 4)
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
                let rb = i * 3
                let xyz = Vec3(Float(rot.u8(rb)), Float(rot.u8(rb + 1)), Float(rot.u8(rb + 2))) / 127.5 - 1
                q = SIMD4(xyz.x, xyz.y, xyz.z, max(0, 1 - xyz.dot(xyz)).squareRoot())
            }
            if kept > 0 {
                let sh = i * kept * 3
                for k in 0..<kept {
                    for c in 0..<3 { rest[k * 3 + c] = (Float(shBlock.u8(sh + k * 3 + c)) - 128) / 128 * shSigns[k] }
                }
            }
            // Stored frame → RDF (for RUB: position (x, −y, −z), quaternion (w, x, −y, −z)).
            cloud.append(position: map.position(p), scale: s,
                         rotation: map.rotation(Quaternion(w: q.w, x: q.x, y: q.y, z: q.z)).normalized,
                         opacity: opacity, dc: dc, rest: rest)
        }
    }
}
