// SceneIO — SOGReader: PlayCanvas SOG v1 and v2, bundled (`.sog` ZIP) or unbundled (a folder
// holding `meta.json` and lossless WebP images), as splat-transform's read-sog.ts /
// read-sog-v1.ts decode them (../shared/design/FORMATS.md, "PlayCanvas SOG").
//
// Decoding (texel i of each image is splat i; images may hold more texels than splats):
//   positions  v = means_l | means_u << 8 per axis; t = mins + span·v/65535 (a zero span
//              counts as 1); p = sign(t)·(e^|t| − 1).
//   rotations  RGB → (b/255·2 − 1)/√2, A = 252 + index of the largest of (w, x, y, z); the three
//              fill the other slots in ascending order; largest = √max(0, 1 − Σ²); other A →
//              identity; normalised.
//   scales     v2: exp(codebook[b]); v1: exp(lerp(mins, maxs, b/255)).
//   sh0        v2: dc = codebook[b], opacity = A/255; v1: dc = lerp, opacity = sigmoid(lerp(A)).
//   shN        label = R | G << 8 → palette entry at column (label % 64)·coeffs, row label / 64
//              of the centroid image; its texel j holds coefficient j's R, G, B; a label beyond
//              the palette gives zero coefficients. splatframe's cache may keep them as rows
//              instead (`"encoding": "rows-zstd"`: SOGSHRows.swift).
// No axes are converted (a SOG is in the frame of the PLY it came from, RDF).
// Contract: memory is bounded by `Limits` whatever the input says — `count` must fit the
// images, images must fit `maxTexels`, ZIP entries and files must fit their byte caps — and
// every failure is a one-line `SceneIOError` naming the container, the member and the problem.
// The per-attribute decoding works on a run of splats (`decodePositions` … `decodeSH`) and is
// shared with `SOGSplatStream`, which reads the same SOGs in bounded memory: the same floats.
import Foundation
import RenderCore

/// Reads PlayCanvas SOG scenes into a `SplatCloud`.
enum SOGReader {
    /// Caps that bound the memory a SOG may make the reader use.
    struct Limits: Sendable {
        /// Texels per image (4 bytes each once decoded); also the most splats a SOG can hold.
        /// 2^26 = an 8192 × 8192 image, 256 MB of RGBA.
        var maxTexels = 1 << 26
        /// Bytes of one image file or ZIP entry (uncompressed).
        var maxEntryBytes = 512 << 20
        /// Bytes of `meta.json`.
        var maxMetaBytes = 16 << 20
        init() {}
        init(maxTexels: Int, maxEntryBytes: Int, maxMetaBytes: Int) {
            self.maxTexels = maxTexels; self.maxEntryBytes = maxEntryBytes; self.maxMetaBytes = maxMetaBytes
        }
    }

    /// True when the bytes start like a ZIP archive (a local file header or an empty archive).
    static func isZip(_ bytes: UnsafeRawBufferPointer) -> Bool {
        bytes.count >= 4 && bytes[0] == 0x50 && bytes[1] == 0x4b
            && ((bytes[2] == 3 && bytes[3] == 4) || (bytes[2] == 5 && bytes[3] == 6))
    }

    /// Reads a SOG from bytes: a bundled `.sog` (ZIP), or the text of an unbundled SOG's
    /// `meta.json` whose images lie in `directory` (default: the folder of `view.file`).
    static func read(_ view: ByteView, directory: String?, limits: Limits = Limits(),
                     progress: SceneLoadProgress?) throws -> ReadResult {
        if isZip(view.bytes) { return try readBundled(view, limits: limits, progress: progress) }
        if (view.file as NSString).pathExtension.lowercased() == "sog" {
            throw SceneIOError.badBytes(file: view.file, offset: 0, expected: "a ZIP archive (PK\\3\\4): a bundled .sog", found: view.sample(0, 8))
        }
        let name = (view.file as NSString).lastPathComponent
        let folder = directory ?? {
            let d = (view.file as NSString).deletingLastPathComponent
            return d.isEmpty ? "." : d
        }()
        if StreamedSOG.isMetaName(name) {
            let sog = try StreamedSOG.parse(Data(view.bytes), file: view.file, folder: folder)
            return try readStreamed(sog, progress: progress)
        }
        let meta = try SOGMeta.parse(Data(view.bytes), file: folder, entry: name)
        return try decode(meta, from: SOGFolder(file: folder), variant: "unbundled folder",
                          metaBytes: view.count, limits: limits, progress: progress)
    }

    /// Reads a bundled `.sog` held in memory: a ZIP with `meta.json` at its root and the images it names.
    static func readBundled(_ view: ByteView, limits: Limits = Limits(), progress: SceneLoadProgress?) throws -> ReadResult {
        try readBundled(try SOGZip(bytes: view.bytes, file: view.file), limits: limits, progress: progress)
    }

    /// Reads the bundled `.sog` file at `path` entry by entry: `meta.json`, then each image as it
    /// is decoded, so what is held at once is the decoded arrays and one entry, never the archive.
    static func readBundled(path: String, limits: Limits = Limits(), progress: SceneLoadProgress?) throws -> ReadResult {
        var r = try readBundled(try SOGZip(path: path), limits: limits, progress: progress)
        var st = stat()
        if stat(path, &st) == 0 { r.sourceBytes = Int(st.st_size) }
        return r
    }

    /// Reads a bundled SOG from its opened archive.
    static func readBundled(_ zip: SOGZip, limits: Limits, progress: SceneLoadProgress?) throws -> ReadResult {
        guard zip.contains("meta.json") else {
            throw SceneIOError.badEntry(file: zip.file, entry: "meta.json",
                                        expected: "a meta.json entry at the archive's root (a bundled SOG)", found: "no such entry")
        }
        let meta = try SOGMeta.parse(try zip.read("meta.json", cap: limits.maxMetaBytes), file: zip.file)
        return try decode(meta, from: zip, variant: "bundled ZIP", metaBytes: nil, limits: limits, progress: progress)
    }

    /// Whether the file at `path` is a bundled SOG by `SceneFormat.detect`'s rule (a ZIP's first
    /// bytes, unless the name says `.splat`), from its first four bytes alone.
    static func isBundled(path: String) -> Bool {
        guard SceneFormat(extension: (path as NSString).pathExtension) != .splat else { return false }
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var head = [UInt8](repeating: 0, count: 4)
        let n = head.withUnsafeMutableBytes { pread(fd, $0.baseAddress, 4, 0) }
        return n == 4 && head.withUnsafeBytes { isZip($0) }
    }

    /// Reads an unbundled SOG folder (the folder holding `meta.json`).
    static func readFolder(_ path: String, limits: Limits = Limits(), progress: SceneLoadProgress?) throws -> ReadResult {
        let folder = SOGFolder(file: path)
        let metaPath = (path as NSString).appendingPathComponent("meta.json")
        if !FileManager.default.fileExists(atPath: metaPath),
           FileManager.default.fileExists(atPath: (path as NSString).appendingPathComponent("lod-meta.json")) {
            return try readStreamed(try StreamedSOG.open(path), progress: progress)
        }
        let metaData = try folder.read("meta.json", cap: limits.maxMetaBytes)
        let meta = try SOGMeta.parse(metaData, file: path)
        return try decode(meta, from: folder, variant: "unbundled folder", metaBytes: metaData.count, limits: limits, progress: progress)
    }

    /// A streamed (level-of-detail) SOG read whole: the finest usable level of every leaf as one
    /// cloud (`StreamedSOG.loadFinest`); viewers stream it level by level instead.
    static func readStreamed(_ sog: StreamedSOG, progress: SceneLoadProgress?) throws -> ReadResult {
        let (cloud, warnings) = try sog.loadFinest(progress: progress)
        var r = ReadResult(scene: .splats(cloud), format: .sog, variant: sog.variant, version: sog.version.map(String.init) ?? "",
                           elements: sog.elements)
        r.sourceBytes = sog.fileBytes
        r.warnings = warnings
        return r
    }

    // MARK: - Decoding

    /// Decodes the images `meta` names into a cloud.
    /// - Parameter metaBytes: for a folder, the size of `meta.json` (the images' sizes are added
    ///   to report the scene's total bytes); nil for a ZIP (its own size is the total).
    static func decode(_ meta: SOGMeta, from c: some SOGContainer, variant: String, metaBytes: Int?,
                       limits: Limits, progress: SceneLoadProgress?) throws -> ReadResult {
        let file = c.file, n = meta.count
        try checkCount(meta, file: file, limits: limits)
        var elements: [SceneInfo.Element] = []
        var bytesRead = 0
        let steps = meta.sh == nil ? 4 : 5
        progress?(0, steps)
        /// Reads and decodes one image, checked to hold `minTexels`.
        func image(_ name: String, minTexels: Int, role: String) throws -> WebPImage {
            let (img, bytes) = try readImage(name, from: c, minTexels: minTexels, limits: limits)
            bytesRead += bytes
            elements.append(SceneInfo.Element(name: name, count: img.texels, properties: ["\(img.width)×\(img.height) RGBA", role]))
            return img
        }
        let tables = Tables(meta, file: file)

        // Positions: 16 bits per axis over two images, then the inverse log transform.
        var positions = [Vec3](repeating: .zero, count: n)
        do {
            let lo = try image(meta.meansLower, minTexels: n, role: "position low bytes")
            let hi = try image(meta.meansUpper, minTexels: n, role: "position high bytes")
            try lo.rgba.withUnsafeBytes { l in
                try hi.rgba.withUnsafeBytes { h in
                    try positions.withUnsafeMutableBufferPointer { try decodePositions(tables, low: l, high: h, first: 0, into: $0) }
                }
            }
        }
        progress?(1, steps)

        // Rotations: smallest three, the largest component's index in the alpha byte.
        var rotations = [Quaternion](repeating: Quaternion(w: 1, x: 0, y: 0, z: 0), count: n)
        do {
            let q = try image(meta.quatsFile, minTexels: n, role: "rotation smallest-three")
            q.rgba.withUnsafeBytes { b in rotations.withUnsafeMutableBufferPointer { decodeRotations(b, into: $0) } }
        }
        progress?(2, steps)

        // Scales (log-space in the file).
        var scales = [Vec3](repeating: .zero, count: n)
        do {
            let s = try image(meta.scalesFile, minTexels: n, role: meta.version == 2 ? "log-scale codebook indices" : "log-scale lerp")
            s.rgba.withUnsafeBytes { b in scales.withUnsafeMutableBufferPointer { decodeScales(tables, b, into: $0) } }
        }
        progress?(3, steps)

        // DC colour and opacity.
        var dc = [Vec3](repeating: .zero, count: n)
        var opacities = [Float](repeating: 0, count: n)
        do {
            let s = try image(meta.sh0File, minTexels: n, role: meta.version == 2 ? "DC codebook indices, opacity" : "DC lerp, opacity logit lerp")
            s.rgba.withUnsafeBytes { b in
                dc.withUnsafeMutableBufferPointer { d in opacities.withUnsafeMutableBufferPointer { decodeColors(tables, b, dc: d, opacities: $0) } }
            }
        }

        // Higher-order SH through the palette (or splatframe's rows).
        var degree = 0
        var shRest: [Float] = []
        if let sh = meta.sh {
            progress?(4, steps)
            switch sh.storage {
            case let .palette(_, centroidsFile, labelsFile):
                let palette = try Palette(sh, centroids: try image(centroidsFile, minTexels: 1, role: "SH palette (64 entries per row)"), file: file)
                let labels = try image(labelsFile, minTexels: n, role: "SH palette labels")
                degree = palette.bands
                shRest = [Float](repeating: 0, count: n * palette.coeffs * 3)
                labels.rgba.withUnsafeBytes { l in shRest.withUnsafeMutableBufferPointer { decodeSH(palette, labels: l, into: $0) } }
            case .rows(let name):
                degree = sh.bands ?? 3                                // rows are v2 only: bands always given
                let (rows, bytes) = try SOGSHRows.read(name, from: c, count: n, bands: degree, limits: limits)
                bytesRead += bytes
                elements.append(SceneInfo.Element(name: name, count: n, properties: ["zstd", "SH rows (\(SOGSHRows.bytesPerSplat(bands: degree)) codebook bytes a splat)"]))
                shRest = [Float](repeating: 0, count: rows.count)
                let table = lookupTables(sh.values, channels: 1)[0]
                rows.withUnsafeBytes { r in shRest.withUnsafeMutableBufferPointer { SOGSHRows.decode(table: table, rows: r, into: $0) } }
            }
        }
        progress?(steps, steps)

        let cloud = SplatCloud(positions: positions, scales: scales, rotations: rotations, opacities: opacities, dc: dc,
                               shDegree: degree, shRest: shRest)
        let quant = meta.version == 2 ? "codebook" : "min/max lerp"
        let props = ["position 2×16-bit log-lerp", "rotation smallest-three", "scale \(quant)", "dc \(quant)",
                     meta.version == 2 ? "opacity 8-bit" : "opacity 8-bit logit lerp"]
            + (meta.sh.map { sh in
                if case .rows = sh.storage { return ["sh bands \(degree) rows \(quant)"] }
                return ["sh bands \(degree) palette \(quant)"]
            } ?? [])
        var result = ReadResult(scene: .splats(cloud), format: .sog, variant: variant, version: "\(meta.version)",
                                elements: [SceneInfo.Element(name: "splat", count: n, properties: props)] + elements)
        if let m = metaBytes { result.sourceBytes = m + bytesRead }
        return result
    }

    /// Refuses a count no image under `limits` can hold.
    static func checkCount(_ meta: SOGMeta, file: String, limits: Limits) throws {
        guard meta.count <= limits.maxTexels else {
            throw SceneIOError.badEntry(file: file, entry: meta.version == 2 ? "meta.json count" : "meta.json means.shape[0]",
                                        expected: "at most \(limits.maxTexels) splats (the texels one image may hold)", found: "\(meta.count)")
        }
    }

    /// Reads member `name` of `c` and decodes it, checked to hold `minTexels`; also the member's size in bytes.
    static func readImage(_ name: String, from c: some SOGContainer, minTexels: Int, limits: Limits) throws -> (WebPImage, Int) {
        let data = try c.read(name, cap: limits.maxEntryBytes)
        let img = try data.withUnsafeBytes {
            try WebPImage(decoding: $0, minTexels: minTexels, maxTexels: limits.maxTexels, file: c.file, entry: name)
        }
        return (img, data.count)
    }

    // MARK: - Decoding a run of splats (shared with SOGSplatStream)
    // Each function decodes `out.count` splats from RGBA texel bytes (4 a splat) whose first texel
    // is the run's first splat: the whole reader passes whole images, the stream a block's texels.

    /// What `meta.json` says about turning texel bytes into attributes, as tables built once.
    struct Tables {
        /// The container and the low position image (for errors).
        let file: String, meansLower: String
        /// Position bounds in log space; a zero span counts as 1.
        let mins: SIMD3<Double>, span: SIMD3<Double>
        /// Per channel: 256 log-scales, 256 DC values (v1: 4 channels, the last unused here).
        let scale: [[Float]], dc: [[Float]]
        /// Opacity per sh0 alpha byte: v2 A/255, v1 the sigmoid of the logit lerp.
        let alpha: [Float]

        init(_ meta: SOGMeta, file: String) {
            self.file = file; meansLower = meta.meansLower
            mins = meta.meansMins
            var span = meta.meansMaxs - meta.meansMins
            for a in 0..<3 where span[a] == 0 { span[a] = 1 }
            self.span = span
            scale = SOGReader.lookupTables(meta.scales, channels: 3)
            dc = SOGReader.lookupTables(meta.sh0, channels: 4)
            // v2: alpha is the opacity (already through the sigmoid); v1: a logit lerp.
            alpha = meta.version == 2 ? (0..<256).map { Float($0) / 255 } : dc[3].map { 1 / (1 + expf(-$0)) }
        }
    }

    /// The SH palette: the centroid image (small: 64 entries a row) and its value table.
    struct Palette {
        /// SH bands 1…3 and rest coefficients per channel.
        let bands: Int, coeffs: Int
        /// Centroid image width in texels; labels at or beyond `entries` give zero coefficients.
        let width: Int, entries: Int
        let rgba: [UInt8]
        let table: [Float]

        /// Checks the centroid image against the bands `sh` names (v1: its width says them).
        init(_ sh: SOGMeta.SH, centroids: WebPImage, file: String) throws {
            if let b = sh.bands { bands = b } else {
                guard let b = [192: 1, 512: 2, 960: 3][centroids.width] else {
                    throw SceneIOError.badEntry(file: file, entry: sh.files[0], expected: "a width of 192, 512 or 960 (SH bands 1, 2, 3)",
                                                found: "width \(centroids.width)")
                }
                bands = b
            }
            coeffs = SplatCloud.restCount(degree: bands)
            guard centroids.width == 64 * coeffs else {
                throw SceneIOError.badEntry(file: file, entry: sh.files[0], expected: "a width of \(64 * coeffs) (64 entries × \(coeffs) coefficients)",
                                            found: "width \(centroids.width)")
            }
            // Labels at or beyond the palette (or the rows the image holds) give zero coefficients.
            var count: Int? = nil
            if case .palette(let c, _, _) = sh.storage { count = c }
            entries = min(count ?? Int.max, 64 * centroids.height)
            table = SOGReader.lookupTables(sh.values, channels: 1)[0]
            width = centroids.width
            rgba = centroids.rgba
        }
    }

    /// Centres from the low and high position bytes; `first` is the run's first splat (for errors).
    /// - Throws: `SceneIOError.badEntry` for a centre that is not finite.
    static func decodePositions(_ t: Tables, low l: UnsafeRawBufferPointer, high h: UnsafeRawBufferPointer, first: Int,
                                into out: UnsafeMutableBufferPointer<Vec3>) throws {
        precondition(l.count >= out.count * 4 && h.count >= out.count * 4, "SOG texels shorter than the run")
        for i in 0..<out.count {
            var p = Vec3.zero
            for a in 0..<3 {
                let v = Double(UInt16(l[i * 4 + a]) | UInt16(h[i * 4 + a]) << 8)
                let s = t.mins[a] + t.span[a] * v / 65535
                let e = expm1(abs(s))
                p[a] = Float(s < 0 ? -e : e)
            }
            guard p.x.isFinite, p.y.isFinite, p.z.isFinite else {
                throw SceneIOError.badEntry(file: t.file, entry: t.meansLower, expected: "finite positions (means.mins/maxs too large)",
                                            found: "splat \(first + i) at (\(p.x), \(p.y), \(p.z))")
            }
            out[i] = p
        }
    }

    /// Rotations: smallest three, the largest component's index in the alpha byte (252…255;
    /// anything else is the identity).
    static func decodeRotations(_ b: UnsafeRawBufferPointer, into out: UnsafeMutableBufferPointer<Quaternion>) {
        precondition(b.count >= out.count * 4, "SOG texels shorter than the run")
        let invSqrt2 = Float(0.5).squareRoot()
        for i in 0..<out.count {
            let tag = b[i * 4 + 3]
            guard tag >= 252 else { out[i] = Quaternion(w: 1, x: 0, y: 0, z: 0); continue }       // not 252…255: identity
            let largest = Int(tag - 252)
            var c = SIMD4<Float>.zero                 // w, x, y, z
            var k = 0, sum: Float = 0
            for slot in 0..<4 where slot != largest {
                let v = (Float(b[i * 4 + k]) / 255 * 2 - 1) * invSqrt2
                c[slot] = v; sum += v * v; k += 1
            }
            c[largest] = max(0, 1 - sum).squareRoot()
            out[i] = Quaternion(w: c[0], x: c[1], y: c[2], z: c[3]).normalized
        }
    }

    /// Scales: exp of the log-scale each byte stands for.
    static func decodeScales(_ t: Tables, _ b: UnsafeRawBufferPointer, into out: UnsafeMutableBufferPointer<Vec3>) {
        precondition(b.count >= out.count * 4, "SOG texels shorter than the run")
        let table = t.scale
        for i in 0..<out.count {
            out[i] = Vec3(expf(table[0][Int(b[i * 4])]), expf(table[1][Int(b[i * 4 + 1])]), expf(table[2][Int(b[i * 4 + 2])]))
        }
    }

    /// DC colour (RGB bytes) and opacity (the alpha byte).
    static func decodeColors(_ t: Tables, _ b: UnsafeRawBufferPointer, dc: UnsafeMutableBufferPointer<Vec3>, opacities: UnsafeMutableBufferPointer<Float>) {
        precondition(b.count >= dc.count * 4 && opacities.count == dc.count, "SOG texels shorter than the run")
        let table = t.dc, alpha = t.alpha
        for i in 0..<dc.count {
            dc[i] = Vec3(table[0][Int(b[i * 4])], table[1][Int(b[i * 4 + 1])], table[2][Int(b[i * 4 + 2])])
            opacities[i] = alpha[Int(b[i * 4 + 3])]
        }
    }

    /// Higher-order SH through the palette: `out` holds `coeffs · 3` floats a splat (channel
    /// innermost); a label beyond the palette gives zeros.
    static func decodeSH(_ p: Palette, labels l: UnsafeRawBufferPointer, into out: UnsafeMutableBufferPointer<Float>) {
        let coeffs = p.coeffs, width = p.width, table = p.table, n = out.count / (coeffs * 3)
        precondition(out.count == n * coeffs * 3 && l.count >= n * 4, "SOG texels shorter than the run")
        p.rgba.withUnsafeBufferPointer { cen in
            for i in 0..<n {
                let label = Int(l[i * 4]) | Int(l[i * 4 + 1]) << 8
                guard label < p.entries else {
                    for o in (i * coeffs * 3)..<((i + 1) * coeffs * 3) { out[o] = 0 }
                    continue
                }
                let rowStart = (label / 64) * width + (label % 64) * coeffs
                for j in 0..<coeffs {
                    let t = (rowStart + j) * 4, o = (i * coeffs + j) * 3
                    out[o] = table[Int(cen[t])]; out[o + 1] = table[Int(cen[t + 1])]; out[o + 2] = table[Int(cen[t + 2])]
                }
            }
        }
    }

    /// Per-channel 256-entry tables: codebook entries (shared by every channel) or the v1 lerp
    /// `mins[c] + (maxs[c] − mins[c])·b/255`.
    static func lookupTables(_ q: SOGMeta.Quantisation, channels: Int) -> [[Float]] {
        switch q {
        case .codebook(let cb):
            return Array(repeating: cb, count: channels)
        case let .lerp(mins, maxs):
            return (0..<channels).map { c in
                (0..<256).map { b in mins[c] + (maxs[c] - mins[c]) * Float(b) / 255 }
            }
        }
    }
}
