// SplatLOD — CaptureLOD: the level-of-detail tree of a plain capture, from the cache when it holds
// one, else built (and cached when a cache is given and can take it, else kept in memory).
import Foundation
import RenderCore
import SceneIO
import Workers

/// A plain capture's level-of-detail tree, ready to draw.
public enum CaptureLOD {
    /// Tree choices shared by every use (and so part of the cache key).
    public static let chunkSplats = StreamedSOGWriter.defaultChunkSplats
    /// The coarsest level holds at most this many splats (so a budget of a few tens of thousands
    /// can be met however large the capture).
    public static let coarsestSplats = 16_384
    /// Most splats in a leaf box: the grain at which the selector chooses levels. Small leaves let
    /// a budget go where the picture needs it (the playbot at 125,000 splats up close: 29.5 dB
    /// against the whole capture with leaves of 16,384, 31.6 with 2,048, 33.3 with 1,024; the 1M
    /// room at 200,000: 27.8, 29.5, 30.0) for a larger lod-meta.json (2.6 MB for 4M splats) and
    /// ~1 ms more choosing per frame at 4M splats (4,000 leaves).
    public static let leafSplats = 1024

    /// The builder's options for a capture of `splats` splats, as `convert` makes them by default:
    /// leaves of `leafSplats` (at most a chunk); levels enough that the coarsest holds at most
    /// `coarsestSplats` (at least 6, at most 16).
    public static func buildOptions(splats: Int, chunkSplats: Int = chunkSplats) -> LODBuilder.Options {
        var o = LODBuilder.Options()
        o.leafSplats = max(1, min(leafSplats, chunkSplats))
        // Level 1 holds a little over half the capture (it only pairs: splats whose neighbours
        // were all taken stay single, ~52 % on real and generated captures; 0.55 keeps a margin),
        // each level after it half the one below (`mergeToHalf`).
        var levels = 1, coarsest = Double(splats)
        while levels < 16 && coarsest > Double(coarsestSplats) { coarsest *= levels == 1 ? 0.55 : 0.5; levels += 1 }
        o.levels = max(6, levels)
        return o
    }

    /// What the cache key says about how trees are built (the options follow from the capture).
    static let recipe = "levels: coarsest ≤ \(coarsestSplats), at least 6|leaf: \(leafSplats)|chunk: \(chunkSplats)"

    /// What became of a request.
    public struct Outcome: Sendable {
        public let sog: StreamedSOG
        /// Where it came from.
        public let origin: Origin
        /// Why the cache was not used, one line each (shown, not fatal).
        public let notes: [String]
        /// Seconds building and writing (0 when the cache held it).
        public let buildSeconds: Double, writeSeconds: Double
        /// What the out-of-core build did (`makeOutOfCore` when it built; nil otherwise).
        public var outOfCore: OutOfCoreBuilder.Result? = nil
    }

    public enum Origin: String, Sendable { case cache = "cache", built = "built, cached", memory = "built in memory" }

    /// The cached tree of `path` (nil when the cache holds none or `cache` is nil).
    public static func cached(_ path: String, cache: LODCache?) -> (StreamedSOG, LODCache.Entry)? {
        guard let cache, let key = try? LODCache.key(for: path, recipe: recipe),
              let entry = cache.entry(key), let sog = try? StreamedSOG.open(entry.metaPath), sog.warnings.isEmpty else { return nil }
        return (sog, entry)
    }

    /// The tree of `cloud` (read from `path`): the cache's entry, else built on `threads` threads
    /// and stored in `cache` (when given and it can take it; else kept in memory, with a note).
    /// `progress` gets the fraction done (build ≈ the first quarter, chunk writing the rest).
    /// - Throws: `LODBuildError.cancelled` / `SceneIOError.cancelled` when `cancelled` said stop;
    ///   `LODMemoryError` when the build would not fit in `memoryLimit` bytes.
    public static func make(_ cloud: SplatCloud, path: String, cache: LODCache?, threads: Int = CoreCount.available,
                            memoryLimit: Int? = AvailableMemory.bytes, cancelled: (@Sendable () -> Bool)? = nil,
                            progress: (@Sendable (Double) -> Void)? = nil) throws -> Outcome {
        if let (sog, _) = cached(path, cache: cache) {
            progress?(1)
            return Outcome(sog: sog, origin: .cache, notes: [], buildSeconds: 0, writeSeconds: 0)
        }
        let peak = LODBuilder.estimatedPeakBytes(splats: cloud.count, shDegree: cloud.shDegree)
        if let memoryLimit, peak > memoryLimit {
            throw LODMemoryError(file: path, needed: peak, available: memoryLimit)
        }
        var options = buildOptions(splats: cloud.count)
        options.threads = threads
        let storing = cache != nil
        let start = MonotonicClock.now()
        let pyramid = try LODBuilder.build(cloud, options: options, cancelled: cancelled) { done, total in
            progress?(Double(done) / Double(max(1, total)) * (storing ? 0.25 : 1))
        }
        let built = MonotonicClock.now() - start
        var notes: [String] = []
        if let cache {
            do {
                let key = try LODCache.key(for: path, recipe: recipe)
                let entry = try cache.store(pyramid, key: key, chunkSplats: chunkSplats, threads: threads, cancelled: cancelled) { done, total in
                    progress?(0.25 + 0.75 * Double(done) / Double(max(1, total)))
                }
                let sog = try StreamedSOG.open(entry.metaPath)
                return Outcome(sog: sog, origin: .built, notes: sog.warnings, buildSeconds: built,
                               writeSeconds: MonotonicClock.now() - start - built)
            } catch let e as LODCacheError {
                notes.append("\(e); kept in memory this time")
            } catch let e as SceneIOError {
                if case .cancelled = e { throw e }
                notes.append("\(e); kept in memory this time")
            }
        }
        progress?(1)
        return Outcome(sog: .inMemory(consume pyramid, chunkSplats: chunkSplats, name: path + " (levels of detail)"), origin: .memory,
                       notes: notes, buildSeconds: built, writeSeconds: 0)
    }
}

/// A tree that would not fit in memory: the capture is drawn whole.
public struct LODMemoryError: Error, Equatable, CustomStringConvertible {
    public let file: String
    public let needed: Int, available: Int
    public var description: String {
        "\(file): building its levels of detail needs about \(needed >> 20) MB of memory; \(available >> 20) MB are free"
    }
}

/// Memory the system can still give (`MemAvailable` of /proc/meminfo), nil when unknown.
public enum AvailableMemory {
    public static var bytes: Int? {
        guard let text = try? String(contentsOfFile: "/proc/meminfo", encoding: .utf8),
              let line = text.split(separator: "\n").first(where: { $0.hasPrefix("MemAvailable:") }) else { return nil }
        let fields = line.split(separator: " ")
        guard fields.count >= 2, let kb = Int(fields[1]) else { return nil }
        return kb * 1024
    }
}
