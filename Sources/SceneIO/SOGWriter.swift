// SceneIO — SOGWriter: SplatCloud → PlayCanvas SOG v2, as splat-transform's write-sog.ts writes
// it: an unbundled folder (`meta.json` + lossless WebP images) or a bundled `.sog` (the same
// files in a ZIP, stored). The reader's view of the format is FORMATS.md, "PlayCanvas SOG".
//
// Field by field (texel i holds the i-th splat in Morton order of the centres):
//   means_l/u  per axis t = sign(v)·ln(|v| + 1), 16 bits of (t − min)/(max − min) (low, high byte)
//   quats      the largest of (w, x, y, z) made positive, the other three ·√2 mapped to bytes in
//              ascending index order, A = 252 + the largest's index
//   scales     per axis the label of ln(scale) in a 256-entry codebook (`Quantizer1D`, the three
//              axes pooled)
//   sh0        per channel the label of the DC coefficient in a 256-entry codebook; A = opacity·255
//   shN        bands 1–3: rows of coefficients (channel-major, 3·coeffs floats) clustered by
//              `KMeans` into a palette of min(64, 2^⌊log2(n/1024)⌋)·1024 entries; the palette's
//              values through a 256-entry codebook, 64 entries per row of `shN_centroids`
//              (coeffs texels each: R, G, B of coefficient j), `shN_labels` = index (low, high byte);
//              or (`Options.shRows`, splatframe's cache only) each splat's codebook bytes as rows
//              in one zstd frame, `shN_rows.zst` (SOGSHRows.swift)
// Differences from splat-transform: bytes are rounded, not truncated; a zero-width position range
// writes 0 (not NaN); the SH palette comes from a two-level k-means (KMeans.swift: minutes, not
// hours, for a million splats on a CPU). SH degree 4 is cut to 3 (SOG's highest).
// Contract: an empty cloud, more splats than a 16383² image holds, non-finite centres or arrays of
// disagreeing length are refused with one line; files go to a temporary name first and are renamed
// into place, so a failed write never leaves a half-written SOG under the asked-for name.
import CWebP
import CZip
import Foundation
import RenderCore

/// Writes PlayCanvas SOG v2.
public enum SOGWriter {
    /// Encoding choices.
    public struct Options: Sendable {
        /// k-means rounds for the SH palette (splat-transform's default is 10).
        public var shIterations = 10
        /// What `asset.generator` says.
        public var generator = "splatframe"
        /// Entries of the SH palette (at most 65,536: labels are 16 bits); nil follows
        /// splat-transform's rule, min(64, 2^⌊log2(n/1024)⌋)·1024. At least the splat count makes
        /// every row its own entry: no k-means, and SH is lost only to the 256-value codebook.
        public var shPaletteSize: Int?
        /// Writes the higher-order SH as splatframe's rows (`SOGSHRows`: each splat's own
        /// codebook bytes in one zstd frame, `"encoding": "rows-zstd"`) instead of a palette: no
        /// k-means, the same floats as a palette of one entry per splat, and a decode several
        /// times cheaper. Only splatframe reads it — its level-of-detail cache, never a file
        /// meant for other viewers. `shPaletteSize` is then unused.
        public var shRows = false
        public init() {}
    }

    /// One encoded SOG: meta.json's bytes and the images it names (file name → WebP bytes).
    public struct Encoded {
        public var meta: [UInt8]
        public var files: [(name: String, bytes: [UInt8])]
    }

    /// Writes `cloud` to `path`: a `.sog` file (ZIP), or a folder whose `meta.json` is `path`
    /// (when it ends in `meta.json`) or inside `path`.
    public static func write(_ cloud: SplatCloud, to path: String, options: Options = Options()) throws {
        let encoded = try encode(cloud, options: options, file: path)
        if path.lowercased().hasSuffix(".sog") {
            try writeZip(encoded, to: path)
        } else {
            let metaPath = path.hasSuffix("meta.json") ? path : (path as NSString).appendingPathComponent("meta.json")
            try writeFolder(encoded, metaPath: metaPath)
        }
    }

    /// The SOG's files for `cloud`; `file` names it in errors.
    /// `order`: the splat for each texel (a permutation of the cloud's indices); nil: Morton order.
    public static func encode(_ cloud: SplatCloud, options: Options = Options(), order: [Int]? = nil,
                              file: String = "output.sog") throws -> Encoded {
        let n = cloud.count
        guard n > 0 else { throw SceneIOError.unsupported(file: file, reason: "a SOG of 0 splats") }
        let restN = cloud.shRestCount
        guard cloud.scales.count == n, cloud.rotations.count == n, cloud.opacities.count == n, cloud.dc.count == n,
              cloud.shRest.count == n * restN * 3 else {
            throw SceneIOError.unsupported(file: file, reason: "a splat cloud whose arrays disagree in length")
        }
        let width = Int((Double(n).squareRoot() / 4).rounded(.up)) * 4
        let height = Int((Double(n) / Double(width) / 4).rounded(.up)) * 4
        guard width <= 16383, height <= 16383 else {
            throw SceneIOError.unsupported(file: file, reason: "\(n) splats (a SOG image holds at most 16383×16383; write a streamed SOG)")
        }
        if let bad = cloud.positions.firstIndex(where: { !($0.x.isFinite && $0.y.isFinite && $0.z.isFinite) }) {
            throw SceneIOError.badValue(file: file, element: "vertex", row: bad, expected: "a finite centre", found: "\(cloud.positions[bad])")
        }
        let order = order ?? mortonOrder(cloud.positions)
        guard order.count == n else { throw SceneIOError.unsupported(file: file, reason: "a texel order of \(order.count) for \(n) splats") }
        var files: [(String, [UInt8])] = []
        func image(_ name: String, _ rgba: [UInt8], _ w: Int = width, _ h: Int = height) throws {
            files.append((name, try encodeWebP(rgba, width: w, height: h, file: file, entry: name)))
        }
        func byte(_ v: Float) -> UInt8 { UInt8(max(0, min(255, (v * 255).rounded()))) }

        // Centres.
        func logT(_ v: Float) -> Float { v < 0 ? -logf(-v + 1) : logf(v + 1) }
        var mins = [Float](repeating: .infinity, count: 3), maxs = [Float](repeating: -.infinity, count: 3)
        for p in cloud.positions {
            for (a, v) in [p.x, p.y, p.z].enumerated() { mins[a] = min(mins[a], v); maxs[a] = max(maxs[a], v) }
        }
        mins = mins.map(logT); maxs = maxs.map(logT)
        var lo = [UInt8](repeating: 0, count: width * height * 4), hi = lo
        for (t, g) in order.enumerated() {
            let p = cloud.positions[g]
            for (a, v) in [p.x, p.y, p.z].enumerated() {
                let span = maxs[a] - mins[a]
                let q = span > 0 ? UInt16(max(0, min(65535, ((logT(v) - mins[a]) / span * 65535).rounded()))) : 0
                lo[t * 4 + a] = UInt8(q & 0xFF); hi[t * 4 + a] = UInt8(q >> 8)
            }
            lo[t * 4 + 3] = 255; hi[t * 4 + 3] = 255
        }
        try image("means_l.webp", lo); try image("means_u.webp", hi)

        // Rotations.
        var quats = [UInt8](repeating: 0, count: width * height * 4)
        let others = [[1, 2, 3], [0, 2, 3], [0, 1, 3], [0, 1, 2]]
        for (t, g) in order.enumerated() {
            let r = cloud.rotations[g]
            var q = [r.w, r.x, r.y, r.z]
            let len = (q.reduce(0) { $0 + $1 * $1 }).squareRoot()
            if len > 0 && len.isFinite { q = q.map { $0 / len } } else { q = [1, 0, 0, 0] }
            var m = 0
            for c in 1..<4 where abs(q[c]) > abs(q[m]) { m = c }
            let s: Float = (q[m] < 0 ? -1 : 1) * Float(2).squareRoot()
            for (k, c) in others[m].enumerated() { quats[t * 4 + k] = byte(q[c] * s * 0.5 + 0.5) }
            quats[t * 4 + 3] = UInt8(252 + m)
        }
        try image("quats.webp", quats)

        // Scales through a log codebook.
        let logScales = (0..<3).map { a in cloud.scales.map { s -> Float in
            let v = a == 0 ? s.x : a == 1 ? s.y : s.z
            return v > 0 ? logf(v) : -.infinity } }
        let sq = Quantizer1D.quantize(logScales)
        try image("scales.webp", labelImage(sq.labels, order: order, width: width, height: height, alpha: nil))

        // DC colour and opacity.
        let dcColumns = (0..<3).map { a in cloud.dc.map { a == 0 ? $0.x : a == 1 ? $0.y : $0.z } }
        let cq = Quantizer1D.quantize(dcColumns)
        try image("sh0.webp", labelImage(cq.labels, order: order, width: width, height: height,
                                          alpha: cloud.opacities.map(byte)))

        // Higher-order SH through a palette (or as rows).
        let bands = min(cloud.shDegree, 3)
        var shMeta = ""
        if bands > 0 {
            let coeffs = SplatCloud.restCount(degree: bands), dims = coeffs * 3
            var rows = [Float](repeating: 0, count: n * dims)
            for i in 0..<n {
                for j in 0..<coeffs {
                    for c in 0..<3 { rows[i * dims + c * coeffs + j] = cloud.shRest[(i * restN + j) * 3 + c] }
                }
            }
            if options.shRows {
                // Each splat its own entry: the rows themselves through one codebook.
                let columns = (0..<dims).map { d in (0..<n).map { rows[$0 * dims + d] } }
                let vq = Quantizer1D.quantize(columns)
                let rowBytes = SOGSHRows.bytesPerSplat(bands: bands)
                var bytes = [UInt8](repeating: 0, count: n * rowBytes)
                for (t, g) in order.enumerated() {
                    for j in 0..<coeffs { for c in 0..<3 { bytes[t * rowBytes + j * 3 + c] = vq.labels[c * coeffs + j][g] } }
                }
                files.append(("shN_rows.zst", try Compress.zstd(bytes, level: 3, file: file)))
                shMeta = ",\"shN\":{\"bands\":\(bands),\"encoding\":\"\(SOGMeta.rowsEncoding)\",\"codebook\":\(json(vq.centroids)),\"files\":[\"shN_rows.zst\"]}"
            } else {
                let paletteSize = min(1 << 16, max(1, options.shPaletteSize
                    ?? Int(min(64, pow(2, log2(Double(n) / 1024).rounded(.down))) * 1024)))
                let km = KMeans(points: rows, rows: n, dims: dims, k: paletteSize, iterations: options.shIterations)
                let centroids = km.centroids.count / dims
                let columns = (0..<dims).map { d in (0..<centroids).map { km.centroids[$0 * dims + d] } }
                let vq = Quantizer1D.quantize(columns)
                let cw = 64 * coeffs, ch = (centroids + 63) / 64
                var cen = [UInt8](repeating: 0, count: cw * ch * 4)
                for i in 0..<centroids {
                    for j in 0..<coeffs {
                        let t = (i * coeffs + j) * 4
                        for c in 0..<3 { cen[t + c] = vq.labels[c * coeffs + j][i] }
                        cen[t + 3] = 255
                    }
                }
                var labels = [UInt8](repeating: 0, count: width * height * 4)
                for (t, g) in order.enumerated() {
                    let l = km.labels[g]
                    labels[t * 4] = UInt8(l & 0xFF); labels[t * 4 + 1] = UInt8(l >> 8 & 0xFF); labels[t * 4 + 3] = 255
                }
                try image("shN_centroids.webp", cen, cw, ch)
                try image("shN_labels.webp", labels)
                shMeta = ",\"shN\":{\"count\":\(centroids),\"bands\":\(bands),\"codebook\":\(json(vq.centroids)),\"files\":[\"shN_centroids.webp\",\"shN_labels.webp\"]}"
            }
        }
        let meta = "{\"version\":2,\"asset\":{\"generator\":\(jsonString(options.generator))},\"count\":\(n)"
            + ",\"means\":{\"mins\":\(json(mins)),\"maxs\":\(json(maxs)),\"files\":[\"means_l.webp\",\"means_u.webp\"]}"
            + ",\"scales\":{\"codebook\":\(json(sq.centroids)),\"files\":[\"scales.webp\"]}"
            + ",\"quats\":{\"files\":[\"quats.webp\"]}"
            + ",\"sh0\":{\"codebook\":\(json(cq.centroids)),\"files\":[\"sh0.webp\"]}" + shMeta + "}"
        return Encoded(meta: Array(meta.utf8), files: files.map { (name: $0.0, bytes: $0.1) })
    }

    /// Label columns (and an optional alpha per splat) as an RGBA image in texel order.
    static func labelImage(_ labels: [[UInt8]], order: [Int], width: Int, height: Int, alpha: [UInt8]?) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: width * height * 4)
        for (t, g) in order.enumerated() {
            for c in 0..<min(3, labels.count) { out[t * 4 + c] = labels[c][g] }
            out[t * 4 + 3] = alpha?[g] ?? 255
        }
        return out
    }

    /// Splat indices in Morton order of their centres over their bounds (`MortonOrder`), as
    /// splat-transform orders texels.
    static func mortonOrder(_ positions: [Vec3]) -> [Int] {
        MortonOrder.indices(positions, bounds: Bounds(points: positions)).map(Int.init)
    }

    /// Lossless WebP bytes of an RGBA image.
    static func encodeWebP(_ rgba: [UInt8], width: Int, height: Int, file: String, entry: String) throws -> [UInt8] {
        var out: UnsafeMutablePointer<UInt8>?
        let size = rgba.withUnsafeBufferPointer {
            WebPEncodeLosslessRGBA($0.baseAddress, Int32(width), Int32(height), Int32(width * 4), &out)
        }
        guard size > 0, let out else { throw SceneIOError.unwritable(file: file, reason: "\(entry): libwebp could not encode a \(width)×\(height) image") }
        defer { WebPFree(out) }
        return Array(UnsafeBufferPointer(start: out, count: size))
    }

    static func json(_ values: [Float]) -> String {
        "[" + values.map { $0.isFinite ? "\($0)" : ($0 > 0 ? "1e30" : "-1e30") }.joined(separator: ",") + "]"
    }

    static func jsonString(_ s: String) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: [s])) ?? Data("[\"\"]".utf8)
        return String(decoding: data.dropFirst().dropLast(), as: UTF8.self)
    }

    /// The images, then meta.json as `metaName`, into the existing folder `folder`.
    static func writeFiles(_ e: Encoded, into folder: String, metaName: String = "meta.json") throws {
        for f in e.files { try Data(f.bytes).write(to: URL(fileURLWithPath: (folder as NSString).appendingPathComponent(f.name))) }
        try Data(e.meta).write(to: URL(fileURLWithPath: (folder as NSString).appendingPathComponent(metaName)))
    }

    /// The images then meta.json into `metaPath`'s folder, through a temporary folder beside it
    /// renamed into place (an existing SOG there is replaced whole).
    static func writeFolder(_ e: Encoded, metaPath: String) throws {
        let fm = FileManager.default
        let folder = (metaPath as NSString).deletingLastPathComponent.isEmpty ? "." : (metaPath as NSString).deletingLastPathComponent
        let parent = (folder as NSString).deletingLastPathComponent.isEmpty ? "." : (folder as NSString).deletingLastPathComponent
        let metaName = (metaPath as NSString).lastPathComponent
        do {
            try fm.createDirectory(atPath: parent, withIntermediateDirectories: true)
            let temp = (parent as NSString).appendingPathComponent(".\((folder as NSString).lastPathComponent).partial-\(getpid())")
            try? fm.removeItem(atPath: temp)
            try fm.createDirectory(atPath: temp, withIntermediateDirectories: true)
            try writeFiles(e, into: temp, metaName: metaName)
            if fm.fileExists(atPath: folder) {
                // Replace only our own files: other files in the folder are the user's.
                for f in e.files.map(\.name) + [metaName] {
                    let dst = (folder as NSString).appendingPathComponent(f)
                    try? fm.removeItem(atPath: dst)
                    try fm.moveItem(atPath: (temp as NSString).appendingPathComponent(f), toPath: dst)
                }
                try? fm.removeItem(atPath: temp)
            } else {
                try fm.moveItem(atPath: temp, toPath: folder)
            }
        } catch {
            throw SceneIOError.unwritable(file: metaPath, reason: (error as NSError).localizedDescription)
        }
    }

    /// meta.json then the images, stored (WebP is already compressed), in a ZIP written to a
    /// temporary name and renamed over `path`.
    static func writeZip(_ e: Encoded, to path: String) throws {
        let temp = path + ".partial-\(getpid())"
        var err: Int32 = 0
        guard let zip = zip_open(temp, ZIP_CREATE | ZIP_TRUNCATE, &err) else {
            throw SceneIOError.unwritable(file: path, reason: "libzip cannot create the archive (error \(err))")
        }
        func fail(_ what: String) -> SceneIOError {
            let reason = String(cString: zip_strerror(zip))
            zip_discard(zip)
            unlink(temp)
            return SceneIOError.unwritable(file: path, reason: "\(what): \(reason)")
        }
        // libzip copies nothing until zip_close: the buffers must outlive it.
        let entries = [(name: "meta.json", bytes: e.meta)] + e.files
        var buffers: [UnsafeMutableRawPointer] = []
        defer { buffers.forEach { free($0) } }
        for entry in entries {
            let buffer = malloc(max(1, entry.bytes.count))!
            buffers.append(buffer)
            entry.bytes.withUnsafeBytes { buffer.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
            guard let source = zip_source_buffer(zip, buffer, UInt64(entry.bytes.count), 0) else { throw fail(entry.name) }
            let index = zip_file_add(zip, entry.name, source, ZIP_FL_OVERWRITE | ZIP_FL_ENC_UTF_8)
            guard index >= 0 else { zip_source_free(source); throw fail(entry.name) }
            zip_set_file_compression(zip, UInt64(index), ZIP_CM_STORE, 0)
        }
        guard zip_close(zip) == 0 else { throw fail("writing") }
        guard rename(temp, path) == 0 else {
            unlink(temp)
            throw SceneIOError.unwritable(file: path, reason: String(cString: strerror(errno)))
        }
    }
}
