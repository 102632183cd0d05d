// SceneIO — SplatStreamProbe: a capture's splat count and SH degree from its header alone, for
// the files a bounded stream reads — so a caller can decide whether the capture fits in memory
// before a stream spools anything (`SPZSplatStream` and `SOGSplatStream` decompress the whole
// payload to disk when opened, which for a capture that fits would be wasted).
import Foundation

/// What `SplatStreams.probe` reads from a capture's header.
public struct SplatCaptureSize: Sendable, Equatable {
    /// Splats in the capture.
    public var splats: Int
    /// Its SH degree (a SOG v1 whose palette width is not in `meta.json` counts as 3: the most).
    public var shDegree: Int
}

extension SplatStreams {
    /// The size of the capture at `path` when a bounded stream reads it (`openBounded` gives
    /// one), read from its header: a PLY's header, a `.splat`'s length, an `.spz`'s NGSP header
    /// (the first bytes inflated), a SOG's `meta.json`. nil for every other file, and for one
    /// that cannot be read (the whole-file reader then says why).
    public static func probe(_ path: String) -> SplatCaptureSize? {
        if let s = try? PLYSplatStream.open(path) { return SplatCaptureSize(splats: s.count, shDegree: s.shDegree) }
        if let s = try? PLYRowStream.open(path) { return SplatCaptureSize(splats: s.count, shDegree: s.shDegree) }
        if let s = try? SplatRecordStream.open(path) { return SplatCaptureSize(splats: s.count, shDegree: s.shDegree) }
        if let meta = (try? SOGSplatStream.locate(path))??.0 {
            return SplatCaptureSize(splats: meta.count, shDegree: meta.sh.map { $0.bands ?? 3 } ?? 0)
        }
        if format(of: path) == .spz, let header = spzHeader(path) {
            return SplatCaptureSize(splats: header.count, shDegree: header.degree)
        }
        return nil
    }

    /// The NGSP header of the `.spz` at `path`: raw for v4 and uncompressed files, else the first
    /// 16 bytes of the gzip stream inflated from the file's first 64 KB.
    private static func spzHeader(_ path: String) -> SPZReader.Header? {
        guard let f = try? ReadOnlyFile.open(path, headBytes: 1 << 16), f.head.count >= 2 else { return nil }
        let bytes = f.head
        if bytes[0] == 0x1f && bytes[1] == 0x8b {
            guard let inflated = try? bytes.withUnsafeBytes({ try Decompress.gunzip($0, limit: 16, file: path) }), inflated.count == 16 else { return nil }
            return try? inflated.withUnsafeBytes { try SPZReader.parseHeader(ByteView(bytes: $0, file: path), gzip: true) }
        }
        return try? bytes.withUnsafeBytes { try SPZReader.parseHeader(ByteView(bytes: $0, file: path), gzip: false) }
    }
}
