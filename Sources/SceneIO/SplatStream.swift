// SceneIO — SplatStream: a splat file read a block at a time, for builders that must not hold the
// whole capture (SplatLOD's out-of-core build).
// Contract: blocks come in file order and together hold exactly the splats `SceneFile.load`
// reads, with bit-identical values. Read in bounded memory (`isBounded`), whatever the size:
// a binary little-endian float32 3DGS PLY (`PLYSplatStream`, the common case); any other 3DGS
// PLY whose vertex element comes first without lists — ASCII, big-endian, other scalar types
// (`PLYRowStream`); `.splat` (`SplatRecordStream`); `.spz` (v2/v3 gzip, uncompressed NGSP, v4
// zstd: `SPZSplatStream`) and a SOG v1/v2 — a bundled `.sog`, a folder holding `meta.json` or
// that `meta.json` (`SOGSplatStream`); the last two spool their decompressed attributes to an
// unlinked temporary file (`SpooledColumns`). Every other splat file (2DGS PLY, .ksplat, a
// streamed SOG's lod-meta.json, glTF) is read whole first and handed out in blocks (`isBounded`
// false: the capture is held while it is read, then released as the last block goes).
// `SplatStreams.probe` gives a capture's size from its header, before any stream spools.
import Foundation
import RenderCore

/// A splat capture handed out in blocks.
public protocol SplatStream: AnyObject {
    /// Splats in the capture.
    var count: Int { get }
    /// SH degree of every block.
    var shDegree: Int { get }
    /// What reading found worth saying (skipped header lines…), one line each.
    var warnings: [String] { get }
    /// Whether the stream holds at most a block in memory (false: the capture was read whole).
    var isBounded: Bool { get }
    /// The next at most `maxSplats` splats; nil once every splat was given.
    func next(maxSplats: Int) throws -> SplatCloud?
    /// About every `step`-th splat (exactly splats 0, step, 2·step… where splats can be reached
    /// by index; an even spread through the file where they cannot: `PLYRowStream`'s ASCII),
    /// without disturbing `next`: a coarse picture of a capture too large to hold.
    func sample(step: Int) throws -> SplatCloud
}

/// Opens splat files as streams.
public enum SplatStreams {
    /// The stream of `path`'s splats: its bounded stream (`openBounded`) when one reads it, else
    /// the whole capture read by `SceneFile` and handed out in blocks.
    /// - Throws: `SceneIOError` as `SceneFile.load` does; `.unsupported` when the file holds no splats.
    public static func open(_ path: String, progress: SceneLoadProgress? = nil) throws -> any SplatStream {
        if let stream = try openBounded(path, progress: progress) { return stream }
        let (scene, info) = try SceneFile.loadWithInfo(path: path, progress: progress)
        guard case .splats(let cloud) = scene else {
            throw SceneIOError.unsupported(file: path, reason: "a streamed SOG holds splats; this file holds \(info.kind)")
        }
        return WholeCloudStream(cloud, warnings: info.warnings)
    }

    /// The bounded stream of `path` (see the file header), or nil when none reads it.
    /// - Throws: `SceneIOError` as `SceneFile.load` does for the same file.
    public static func openBounded(_ path: String, progress: SceneLoadProgress? = nil) throws -> (any SplatStream)? {
        if let stream = try PLYSplatStream.open(path) { return stream }
        if let stream = try SOGSplatStream.open(path, progress: progress) { return stream }
        if format(of: path) == .spz { return try SPZSplatStream.open(path, progress: progress) }
        if let stream = try PLYRowStream.open(path) { return stream }
        if let stream = try SplatRecordStream.open(path) { return stream }
        return nil
    }

    /// Bytes of a file's start that `format(of:)` reads.
    static let sniffBytes = 4096

    /// The format `SceneFormat.detect` gives the file at `path` from its first `sniffBytes` bytes
    /// (the rules that pick `.spz` and a SOG's `meta.json` need no more), or nil when the file
    /// cannot be read (the whole-file reader then says why).
    static func format(of path: String) -> SceneFormat? {
        guard let f = try? ReadOnlyFile.open(path, headBytes: sniffBytes) else { return nil }
        return f.head.withUnsafeBytes { SceneFormat.detect($0, name: path) }
    }
}

/// A capture already in memory, handed out in blocks; released when the last block goes.
public final class WholeCloudStream: SplatStream {
    private var cloud: SplatCloud?
    private var given = 0
    public let count: Int, shDegree: Int
    public let warnings: [String]
    public var isBounded: Bool { false }

    public init(_ cloud: SplatCloud, warnings: [String] = []) {
        self.cloud = cloud; count = cloud.count; shDegree = cloud.shDegree; self.warnings = warnings
    }

    /// The whole capture, if no block was given yet (the stream is then empty).
    public func take() -> SplatCloud? {
        guard given == 0, let c = cloud else { return nil }
        cloud = nil; given = count
        return c
    }

    public func next(maxSplats: Int) throws -> SplatCloud? {
        guard let c = cloud, given < count else { cloud = nil; return nil }
        let end = min(count, given + max(1, maxSplats))
        let block = c.subset(ranges: [given..<end])
        given = end
        if given == count { cloud = nil }
        return block
    }

    /// Every `step`-th splat (empty once the last block was given and the capture released).
    public func sample(step: Int) throws -> SplatCloud {
        guard let c = cloud else { return SplatCloud(shDegree: shDegree) }
        return c.subset(ranges: stride(from: 0, to: count, by: max(1, step)).map { $0..<($0 + 1) })
    }
}
