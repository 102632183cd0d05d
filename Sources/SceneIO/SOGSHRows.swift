// SceneIO — SOGSHRows: splatframe's own form of a SOG v2's higher-order SH, written only into its
// level-of-detail cache (`SOGWriter.Options.shRows`): `shN` says `"encoding": "rows-zstd"` and
// names one file, a zstd frame holding, for each texel's splat in turn, its coefficients' R, G, B
// bytes (coefficient-major, channel innermost: coefficients × 3 bytes a splat), each an index
// into `shN.codebook`. It carries exactly what the palette form does when every splat is its own
// palette entry (the cache's chunks), without the palette's lossless WebP, whose decode was three
// quarters of a chunk's (17 of 23 ms for 65,536 SH 3 splats on a Zen 5).
// Contract: the frame must decompress to exactly count × coefficients × 3 bytes, a size checked
// against the limits before anything is allocated; any problem is one line naming the file.
import Foundation
import RenderCore

/// Reading and decoding SH rows (see the file header).
enum SOGSHRows {
    /// Bytes a splat of SH `bands` takes.
    static func bytesPerSplat(bands: Int) -> Int { SplatCloud.restCount(degree: bands) * 3 }

    /// Member `name` of `c`, decompressed to the rows of `count` splats of SH `bands`; also the
    /// member's size in bytes.
    static func read(_ name: String, from c: some SOGContainer, count: Int, bands: Int,
                     limits: SOGReader.Limits) throws -> (rows: [UInt8], fileBytes: Int) {
        let size = count.multipliedReportingOverflow(by: bytesPerSplat(bands: bands))
        guard !size.overflow, size.partialValue <= limits.maxEntryBytes else {
            throw SceneIOError.badEntry(file: c.file, entry: name, expected: "SH rows of at most \(limits.maxEntryBytes) bytes",
                                        found: "\(count) splats × \(bytesPerSplat(bands: bands)) bytes")
        }
        let data = try c.read(name, cap: limits.maxEntryBytes)
        let rows = try data.withUnsafeBytes {
            try Decompress.zstd($0, size: size.partialValue, file: "\(c.file)/\(name)", offset: 0)
        }
        return (rows, data.count)
    }

    /// The coefficients of `out.count / (coefficients × 3)` splats from their row bytes through
    /// `table` (256 entries): byte k of the rows is float k of `out`.
    static func decode(table: [Float], rows: UnsafeRawBufferPointer, into out: UnsafeMutableBufferPointer<Float>) {
        precondition(rows.count >= out.count && table.count == 256, "SH rows shorter than the run")
        table.withUnsafeBufferPointer { t in
            for k in 0..<out.count { out[k] = t[Int(rows[k])] }
        }
    }
}
