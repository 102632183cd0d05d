// SplatLOD — CaptureLOD+OutOfCore: the tree of a plain capture too large to read whole and build
// in memory within a bound (`LODOptions.maxMemoryBytes`): read in a stream and built out of core
// into the cache (`LODCache.storeOutOfCore`), the capture never held. Every file a bounded stream
// reads (`SplatStreams.openBounded`: PLY, .splat, .spz, SOG) can; other files keep the in-memory way.
import Foundation
import RenderCore
import SceneIO
import Workers

extension CaptureLOD {
    /// A capture that must be built out of core: its stream (count and SH degree known from the
    /// header; nothing read yet).
    public struct TooLarge {
        /// The capture's file.
        public let path: String
        /// Its size, from its header (`SplatStreams.probe`).
        public let size: SplatCaptureSize
        public var splats: Int { size.splats }
        public var shDegree: Int { size.shDegree }
    }

    /// `path`, when reading it whole and building its tree in memory would not fit `maxMemory`
    /// bytes (`LODBuilder.estimatedPeakBytes`) and it can be read in a stream; nil otherwise (it
    /// fits, or no bounded stream reads it, or it cannot be read: the whole-file reader then
    /// decides and words any error). Only the header is read.
    public static func tooLarge(_ path: String, maxMemory: Int) -> TooLarge? {
        guard let size = SplatStreams.probe(path),
              !OutOfCoreBuilder.inMemoryFits(splats: size.splats, shDegree: size.shDegree, maxMemory: maxMemory) else { return nil }
        return TooLarge(path: path, size: size)
    }

    /// Splats of the subsample shown while `capture` is built: every `step`-th, at most `most`.
    public static func previewStep(splats: Int, most: Int) -> Int { max(1, (splats + max(1, most) - 1) / max(1, most)) }

    /// A coarse picture of `capture`: every `previewStep`-th splat (at most `most`), each widened
    /// by √step so that the sparser cloud still covers the surfaces the capture covers (splats sit
    /// on surfaces: a k-times sparser sampling leaves each k times the area).
    /// - Throws: `SceneIOError` from reading; `.unsupported` when the file no longer opens as a stream.
    public static func preview(_ capture: TooLarge, most: Int) throws -> SplatCloud {
        let step = previewStep(splats: capture.splats, most: most)
        guard let stream = try SplatStreams.openBounded(capture.path) else {
            throw SceneIOError.unsupported(file: capture.path, reason: "the capture changed: it no longer reads as a stream")
        }
        var cloud = try stream.sample(step: step)
        let widen = Float(step).squareRoot()
        if step > 1 { for i in 0..<cloud.count { cloud.scales[i] *= widen } }
        return cloud
    }

    /// The tree of `path` (`splats` splats of SH degree `shDegree`): the cache's entry, else built
    /// out of core within `maxMemory` bytes on `threads` threads and stored in `cache`.
    /// `progress` gets the build's progress (regions, time left).
    /// - Throws: `LODCacheError` (the cache cannot take it: nothing is built in memory instead),
    ///   `LODBuildError.cancelled`, `SceneIOError` (the input).
    public static func makeOutOfCore(path: String, splats: Int, shDegree: Int, cache: LODCache, maxMemory: Int,
                                     threads: Int = CoreCount.available, cancelled: (@Sendable () -> Bool)? = nil,
                                     progress: (@Sendable (OutOfCoreBuilder.Progress) -> Void)? = nil) throws -> Outcome {
        if let (sog, _) = cached(path, cache: cache) {
            return Outcome(sog: sog, origin: .cache, notes: [], buildSeconds: 0, writeSeconds: 0)
        }
        var options = OutOfCoreBuilder.Options()
        options.chunkSplats = chunkSplats; options.threads = threads; options.maxMemoryBytes = maxMemory
        let start = MonotonicClock.now()
        let (entry, result) = try cache.storeOutOfCore(input: path, key: try LODCache.key(for: path, recipe: recipe), splats: splats,
                                                       shDegree: shDegree, options: options, cancelled: cancelled, progress: progress)
        let sog = try StreamedSOG.open(entry.metaPath)
        return Outcome(sog: sog, origin: .built, notes: sog.warnings + result.warnings, buildSeconds: MonotonicClock.now() - start,
                       writeSeconds: 0, outOfCore: result)
    }
}
