// SceneIO — SplatStream: a splat file read a block at a time, for builders that must not hold the
// whole capture (SplatLOD's out-of-core build).
// Contract: blocks come in file order and together hold exactly the splats `SceneFile.load`
// reads, with bit-identical values. A binary little-endian 3DGS PLY whose attributes are float32
// (the common case, any size) is read in bounded memory (`PLYSplatStream`); every other splat file
// (PLY ASCII, big-endian or 2DGS, .splat, .ksplat, .spz, SOG, glTF) is read whole first and handed
// out in blocks (`isBounded` false: the capture is held while it is read, then released as the
// last block goes).
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
}

/// Opens splat files as streams.
public enum SplatStreams {
    /// The stream of `path`'s splats: `PLYSplatStream` when the file allows it, else the whole
    /// capture read by `SceneFile` and handed out in blocks.
    /// - Throws: `SceneIOError` as `SceneFile.load` does; `.unsupported` when the file holds no splats.
    public static func open(_ path: String, progress: SceneLoadProgress? = nil) throws -> any SplatStream {
        if let stream = try PLYSplatStream.open(path) { return stream }
        let (scene, info) = try SceneFile.loadWithInfo(path: path, progress: progress)
        guard case .splats(let cloud) = scene else {
            throw SceneIOError.unsupported(file: path, reason: "a streamed SOG holds splats; this file holds \(info.kind)")
        }
        return WholeCloudStream(cloud, warnings: info.warnings)
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
}
