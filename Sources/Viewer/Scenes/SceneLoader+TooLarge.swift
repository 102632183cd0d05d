// Viewer — SceneLoader+TooLarge: a plain capture whose whole read and in-memory build would not
// fit `LODOptions.maxMemoryBytes` (a 16M-splat scan) is never held. The window shows a subsample
// read in a stream (`CaptureLOD.preview`: at most `previewSplats`, in seconds) and builds the tree
// out of core into the cache in the background (`LevelOfDetailJob`, progress by regions), which
// then replaces the subsample in place; render, bench and export build it at once, out of core.
// Without a tree cache (render, bench without `--lod-cache`) nothing changes: read whole as before.
import Foundation
import RenderCore
import SceneIO
import SplatLOD
import Workers

extension SceneLoader {
    /// What loading `big` (at `path`, shown as `name`) gives: the subsample and the pending
    /// build for the window (`.realtime`), else the tree built out of core into `cache`; nil when
    /// the cache cannot take it and there is nothing to show yet (the caller reads the capture
    /// whole, as before).
    static func tooLargeKind(_ big: CaptureLOD.TooLarge, path: String, name: String, options: ModelOptions, cache: LODCache,
                             progress: ((Int, Int) -> Void)?, cancelled: @escaping @Sendable () -> Bool) throws
        -> (Kind, PendingLevels?, CaptureLOD.Origin?, [String])? {
        let needs = LODBuilder.estimatedPeakBytes(splats: big.splats, shDegree: big.shDegree)
        let why = "\(name): \(big.splats) splats would need about \(Self.gigabytes(needs)) to read whole and build in memory"
            + " (bound \(Self.gigabytes(options.lod.maxMemoryBytes)))"
        if options.videoPlayback == .realtime {
            let step = CaptureLOD.previewStep(splats: big.splats, most: options.lod.previewSplats)
            let preview = try CaptureLOD.preview(big, most: options.lod.previewSplats)
            if cancelled() { throw ViewerError.cancelled(path: path) }
            progress?(1, 1)
            let pending = PendingLevels(cloud: nil, path: path, splats: big.splats, shDegree: big.shDegree)
            let note = "\(why): every \(step)th splat is shown while its levels of detail are built out of core"
            return (.model(.splats(preview), name: name, sidecar: path), pending, nil, [note])
        }
        let report = Locked(unchecked: progress)
        let made: CaptureLOD.Outcome
        do {
            made = try CaptureLOD.makeOutOfCore(path: path, splats: big.splats, shDegree: big.shDegree, cache: cache,
                                                maxMemory: options.lod.maxMemoryBytes, cancelled: cancelled) { p in
                report.withLock { $0?(Int(p.fraction * 1000), 1000) }
            }
        } catch LODBuildError.cancelled {
            throw ViewerError.cancelled(path: path)
        } catch is LODCacheError {
            return nil
        }
        try checkForcedLevel(options.lod, made.sog, path)
        let bounds = made.sog.fitBounds ?? streamedFitBounds(made.sog).0
        return (.streamed(made.sog, fitBounds: bounds, name: name, sidecar: path), nil, made.origin,
                made.origin == .cache ? made.notes : ["\(why): built out of core"] + made.notes)
    }

    /// The tree of a capture too large to hold (`pending.cloud` nil): from the cache, else built
    /// out of core into it; placed as the subsample was.
    static func tooLargeScene(_ pending: PendingLevels, name: String, sidecar: String?, options: ModelOptions, screen: ScreenGeometry,
                              cancelled: (@Sendable () -> Bool)?, progress: (@Sendable (Double) -> Void)?,
                              detail: (@Sendable (String) -> Void)?) throws -> (scene: Scene, notes: [String], outOfCore: OutOfCoreBuilder.Result?) {
        guard let cache = options.lod.treeCache else {
            throw ViewerError.sceneLoad(path: pending.path, reason: "no level-of-detail cache to build the tree into")
        }
        let made = try CaptureLOD.makeOutOfCore(path: pending.path, splats: pending.splats, shDegree: pending.shDegree, cache: cache,
                                                maxMemory: options.lod.maxMemoryBytes, cancelled: cancelled) { p in
            progress?(p.fraction)
            detail?(Self.progressLine(p))
        }
        try checkForcedLevel(options.lod, made.sog, pending.path)
        let scene = try streamedScene(made.sog, fitBounds: made.sog.fitBounds ?? streamedFitBounds(made.sog).0,
                                      name: name, sidecar: sidecar ?? pending.path, screen: screen, options: options)
        return (scene, made.notes, made.outOfCore)
    }

    /// Where an out-of-core build is, in a few words: "region 3 of 12, about 4 min left".
    public static func progressLine(_ p: OutOfCoreBuilder.Progress) -> String {
        guard p.phase == .building, p.regions > 0 else { return p.phase.rawValue }
        var line = "region \(min(p.regions, p.regionsDone + 1)) of \(p.regions)"
        if let s = p.secondsLeft { line += s < 90 ? ", about \(Int(s.rounded())) s left" : ", about \(Int((s / 60).rounded())) min left" }
        return line
    }

    static func gigabytes(_ bytes: Int) -> String { String(format: "%.1f GB", Double(bytes) / Double(1 << 30)) }
}
