// SceneIO — SOGSplatStream: a PlayCanvas SOG (v1 or v2; a bundled `.sog`, a folder holding
// `meta.json`, or the path of that `meta.json`) read a block of splats at a time in bounded memory.
// A SOG keeps each attribute in a WebP image (texel i is splat i), and an image can only be
// decoded whole: opening decodes the images one at a time, writes each one's first `count` texels
// (RGBA, 4 bytes a splat) to a spool file as a column (`SpooledColumns`, unlinked) and lets the
// image go; the SH centroid palette (64 entries a row: small) stays in memory (splatframe's SH
// rows, `SOGSHRows`, are spooled as a column of their own width). `next` reads each
// column's slice for the block and decodes it with the whole-file reader's own functions
// (`SOGReader.decodePositions` … `decodeSH`): the same floats. Checks, limits and errors are
// `SOGReader`'s. A streamed SOG (`lod-meta.json`) is not read here.
// Memory: one decoded image and its file while opening, then the palette and one block.
import Foundation
import RenderCore

/// A SOG handed out in blocks (see the file header).
public final class SOGSplatStream: SplatStream {
    /// The texel columns: means_l, means_u, quats, scales, sh0, then the SH labels (or rows) when present.
    let columns: SpooledColumns
    private let tables: SOGReader.Tables
    /// How the last column decodes to SH coefficients.
    private enum SHColumn {
        case palette(SOGReader.Palette)
        /// splatframe's SH rows (`SOGSHRows`): bytes through the 256-entry `table`.
        case rows(table: [Float], bands: Int)
        var bands: Int { switch self { case .palette(let p): return p.bands; case .rows(_, let b): return b } }
    }
    private let sh: SHColumn?
    private var row = 0
    private var buffer: [UInt8] = []
    public var count: Int { columns.count }
    public var shDegree: Int { sh?.bands ?? 0 }
    public var warnings: [String] { [] }
    public var isBounded: Bool { true }

    /// The stream of the SOG at `path`, or nil when the path is no plain SOG (`SceneFile` reads it
    /// otherwise: another format, or a streamed SOG's `lod-meta.json` or its folder).
    /// - Parameter progress: (images done, images) while the images are spooled.
    /// - Throws: `SceneIOError` as `SceneFile.load` does for the same SOG; `.unwritable` when the
    ///   spool cannot be written.
    public static func open(_ path: String, progress: SceneLoadProgress? = nil) throws -> SOGSplatStream? {
        let limits = SOGReader.Limits()
        guard let (meta, container) = try locate(path, limits: limits) else { return nil }
        return try SOGSplatStream(meta, from: container, limits: limits, progress: progress)
    }

    /// The `meta.json` of the plain SOG at `path` and the container of its images — a folder
    /// holding `meta.json`, a bundled `.sog`, or the `meta.json` itself — as `SceneFile` finds
    /// them; nil when the path is no plain SOG.
    /// - Throws: `SceneIOError` when the SOG's archive or `meta.json` is bad.
    static func locate(_ path: String, limits: SOGReader.Limits = SOGReader.Limits()) throws -> (SOGMeta, any SOGContainer)? {
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir) else { return nil }
        if isDir.boolValue {
            // As `SOGReader.readFolder`: the folder's meta.json (a folder with lod-meta.json alone is a streamed SOG).
            guard FileManager.default.fileExists(atPath: (path as NSString).appendingPathComponent("meta.json")) else { return nil }
            let folder = SOGFolder(file: path)
            return (try SOGMeta.parse(try folder.read("meta.json", cap: limits.maxMetaBytes), file: path), folder)
        }
        if SOGReader.isBundled(path: path) {
            // As `SOGReader.readBundled(path:)`: entry by entry from the archive.
            let zip = try SOGZip(path: path)
            guard zip.contains("meta.json") else {
                throw SceneIOError.badEntry(file: zip.file, entry: "meta.json",
                                            expected: "a meta.json entry at the archive's root (a bundled SOG)", found: "no such entry")
            }
            return (try SOGMeta.parse(try zip.read("meta.json", cap: limits.maxMetaBytes), file: zip.file), zip)
        }
        // The path of an unbundled SOG's meta.json, as `SceneFormat.detect` knows one (JSON in a
        // file whose name ends in meta.json; not a `.sog` name, which must be a ZIP).
        let name = (path as NSString).lastPathComponent
        guard name.lowercased().hasSuffix("meta.json"), !StreamedSOG.isMetaName(name),
              (path as NSString).pathExtension.lowercased() != "sog",
              SplatStreams.format(of: path) == .sog else { return nil }
        let dir = (path as NSString).deletingLastPathComponent
        let folder = SOGFolder(file: dir.isEmpty ? "." : dir)
        return (try SOGMeta.parse(try folder.read(name, cap: limits.maxMetaBytes), file: folder.file, entry: name), folder)
    }

    /// Spools the images `meta` names, one decoded image at a time.
    private init(_ meta: SOGMeta, from c: some SOGContainer, limits: SOGReader.Limits, progress: SceneLoadProgress?) throws {
        let file = c.file, n = meta.count
        try SOGReader.checkCount(meta, file: file, limits: limits)
        var names = [meta.meansLower, meta.meansUpper, meta.quatsFile, meta.scalesFile, meta.sh0File]
        var widths = [4, 4, 4, 4, 4]
        if let sh = meta.sh {
            switch sh.storage {
            case .palette(_, _, let labels): names.append(labels); widths.append(4)
            case .rows(let rows): names.append(rows); widths.append(SOGSHRows.bytesPerSplat(bands: sh.bands ?? 3))
            }
        }
        let steps = names.count + (meta.sh == nil ? 0 : 1)
        var done = 0
        progress?(0, steps)
        let columns = try SpooledColumns(file: file, count: n, columns: zip(names, widths).map { (name: $0, bytesPerSplat: $1) })
        /// Decodes image `name`, appends its first `n` texels as the next column and lets it go.
        func spool(_ name: String) throws {
            let (image, _) = try SOGReader.readImage(name, from: c, minTexels: n, limits: limits)
            try image.rgba.withUnsafeBytes { try columns.append(UnsafeRawBufferPointer(rebasing: $0[0..<(n * 4)])) }
            done += 1
            progress?(done, steps)
        }
        for name in names.prefix(5) { try spool(name) }
        var column: SHColumn?
        if let sh = meta.sh {
            switch sh.storage {
            case let .palette(_, centroidsFile, labelsFile):
                // As the whole-file reader: the palette is read and checked before the labels.
                let (centroids, _) = try SOGReader.readImage(centroidsFile, from: c, minTexels: 1, limits: limits)
                column = .palette(try SOGReader.Palette(sh, centroids: centroids, file: file))
                done += 1
                progress?(done, steps)
                try spool(labelsFile)
            case .rows(let name):
                let bands = sh.bands ?? 3
                let (rows, _) = try SOGSHRows.read(name, from: c, count: n, bands: bands, limits: limits)
                try rows.withUnsafeBytes { try columns.append($0) }
                column = .rows(table: SOGReader.lookupTables(sh.values, channels: 1)[0], bands: bands)
                done += 2
                progress?(done, steps)
            }
        }
        self.columns = columns
        self.sh = column
        tables = SOGReader.Tables(meta, file: file)
    }

    public func next(maxSplats: Int) throws -> SplatCloud? {
        guard row < count else { return nil }
        let n = min(count - row, max(1, maxSplats))
        let cloud = try splats(row..<(row + n))
        row += n
        return cloud
    }

    /// Splats 0, step, 2·step…, a splat at a time from the spool, without disturbing `next`.
    public func sample(step: Int) throws -> SplatCloud {
        var out = SplatCloud(shDegree: shDegree)
        out.reserveCapacity((count + max(1, step) - 1) / max(1, step))
        for i in stride(from: 0, to: count, by: max(1, step)) { out.append(contentsOf: try splats(i..<(i + 1))) }
        return out
    }

    /// The splats `range`, read from the spool and decoded.
    private func splats(_ range: Range<Int>) throws -> SplatCloud {
        let n = range.count, first = range.lowerBound
        var positions = [Vec3](repeating: .zero, count: n), scales = [Vec3](repeating: .zero, count: n)
        var rotations = [Quaternion](repeating: Quaternion(w: 1, x: 0, y: 0, z: 0), count: n)
        var dc = [Vec3](repeating: .zero, count: n), opacities = [Float](repeating: 0, count: n)
        var shRest = [Float](repeating: 0, count: n * SplatCloud.restCount(degree: sh?.bands ?? 0) * 3)
        let (tables, sh) = (self.tables, self.sh)
        try columns.withSlices(splats: range, buffer: &buffer) { t in
            try positions.withUnsafeMutableBufferPointer { try SOGReader.decodePositions(tables, low: t[0], high: t[1], first: first, into: $0) }
            rotations.withUnsafeMutableBufferPointer { SOGReader.decodeRotations(t[2], into: $0) }
            scales.withUnsafeMutableBufferPointer { SOGReader.decodeScales(tables, t[3], into: $0) }
            dc.withUnsafeMutableBufferPointer { d in opacities.withUnsafeMutableBufferPointer { SOGReader.decodeColors(tables, t[4], dc: d, opacities: $0) } }
            switch sh {
            case .palette(let palette)?: shRest.withUnsafeMutableBufferPointer { SOGReader.decodeSH(palette, labels: t[5], into: $0) }
            case .rows(let table, _)?: shRest.withUnsafeMutableBufferPointer { SOGSHRows.decode(table: table, rows: t[5], into: $0) }
            case nil: break
            }
        }
        return SplatCloud(positions: positions, scales: scales, rotations: rotations, opacities: opacities, dc: dc,
                          shDegree: sh?.bands ?? 0, shRest: shRest)
    }
}
